"""cluster-planner new from an intent (flags), a template, or a template with flags over it.

Why it is long: every flag of new meets a case here (the intents that design, the ones refused
with one line, and what new prints of the plan it writes), one command's behaviour."""

from __future__ import annotations

import csv
import json
import math

import pytest

from planner.cli import main


def run(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    return code, capsys.readouterr()


def check(capsys, path):
    code, out = run(capsys, "check", str(path), "--json")
    assert code in (0, 1), out.err
    return json.loads(out.out)


def test_new_designs_1024_b200_for_70b_in_40_kw_racks_on_ndr400(capsys, tmp_path):
    plan = tmp_path / "plan.json"
    code, out = run(capsys, "new", "--gpus", "1024", "--system", "dgx-b200", "--rack-kw", "40", "--fabric", "ib400",
                    "--model", "llama3-70b", "--train-tokens", "15T", "-o", str(plan))
    assert code == 0, out.err
    assert out.out.startswith(f"wrote {plan}: 128 x DGX B200 (1,024 GPUs)")
    r = check(capsys, plan)
    # 128 nodes for the job and 5 spares (128 x 2.9e-3 x 3 days = 1.1 in repair at once on
    # average, fewer than 5 at 99.4 % of failures, Poisson), all stocked: 128 nodes fill 4 scalable units of 32 on the 64-port QM9700, no port is free.
    # 4 a rack at 40 kW typical (4 x 10 kW): 128 / 4 = 32 GPU racks; no errors.
    assert (r["totals"]["gpus"], r["totals"]["nodes"], r["totals"]["gpu_racks"]) == (1024, 128, 32)
    assert (r["goodput"]["job_gpus"], r["goodput"]["spare_nodes"], r["goodput"]["spares_stocked"]) == (1024, 0, 5)
    assert "info: Spares: 1.1 of the job's 128 nodes" in out.out
    assert not [f for f in r["findings"] if f["severity"] == "error"]
    assert r["network"]["fabric"] == "ib400" and r["network"]["switch_model"] == "qm9700"
    assert r["workload"]["model"] == "llama3-70b" and r["workload"]["train_tokens_b"] == 15000
    assert r["workload"]["tokens_per_s"] > 0


def test_a_template_with_flags_starts_from_its_intent(capsys, tmp_path):
    # medium (16 x HGX H100, NDR400) on HDR: the template's nodes and storage, the flag's fabric
    # (the nodes' 400G NICs run at its 200 Gb/s). On XDR its 400G NICs are slower than the
    # ports: the same kind of fabric at their rate, on Quantum-X800 split to 288 x 400G.
    plan = tmp_path / "m.json"
    code, out = run(capsys, "new", "-t", "medium", "--fabric", "ib200", "-o", str(plan))
    assert code == 0, out.err
    r = check(capsys, plan)
    assert r["totals"]["nodes"] == 16 and r["network"]["fabric"] == "ib200"
    assert r["network"]["switch_model"] == "qm9700-ndr200"
    assert r["storage"]["storage_devices"] == 7
    code, out = run(capsys, "new", "-t", "medium", "--fabric", "ib800", "-o", str(plan))
    assert code == 0, out.err
    assert "the fabric runs as 400G InfiniBand (NDR) on NVIDIA Quantum-X800 Q3400-RA split" in out.out
    r = check(capsys, plan)
    assert (r["network"]["fabric"], r["network"]["switch_model"]) == ("ib400", "q3400-400")


def test_massive_resized_to_2048_nodes_has_no_error(capsys, tmp_path):
    plan = tmp_path / "big.json"
    code, out = run(capsys, "new", "--template", "massive", "--nodes", "2048", "-o", str(plan))
    assert code == 0, out.err
    r = check(capsys, plan)
    # the job's 2,048 nodes and 29 spares (2,048 x 2.9e-3 x 3 days = 17.8 in repair on average;
    # fewer than 29 at a failure with 99.1 %, Poisson): the nodes fill 64 scalable units of 32,
    # no fabric port is free, and stocked each GPU or host failure would wait for a node and
    # keep a cold restart below 90 %, so they are placed hot: 2,077 nodes
    assert (r["totals"]["nodes"], r["goodput"]["job_nodes"], r["goodput"]["spares_stocked"]) == (2077, 2048, 0)
    assert "info: Hot spares: 29 " in out.out
    assert not [f["message"] for f in r["findings"] if f["severity"] == "error"]


def test_gpus_rounded_up_is_said(capsys, tmp_path):
    code, out = run(capsys, "new", "--gpus", "100", "--system", "gb200-nvl72", "-o", str(tmp_path / "n.json"))
    assert code == 0, out.err
    assert "info: 100 GPUs asked for; a GB200 NVL72" in out.out and "144 GPUs" in out.out


def test_bad_intents_give_one_clear_line_and_write_nothing(capsys, tmp_path):
    target = tmp_path / "x.json"
    cases = [
        (["--gpus", "8", "--system", "dgx-z9"], "system: the catalog has no GPU system 'dgx-z9'"),
        (["--system", "dgx-b200"], "--system needs --gpus or --nodes"),
        (["--gpus", "lots", "--system", "dgx-b200"], "'lots' is not a whole number of gpus"),
        (["--gpus", "8", "--system", "dgx-b200", "--train-tokens", "many"], "'many' is not a token count"),
        (["--gpus", "8", "--system", "dgx-b200", "--rack-kw", "-5"], "'-5' must be above 0"),
        (["--gpus", "8", "--system", "dgx-b200", "--rack-kw", "inf"], "'inf' is not a finite number"),
        (["-t", "nosuch", "--gpus", "8"], "there is no template 'nosuch'"),
        (["--system", "dgx-h100", "--nodes", "0"], "--nodes takes 1 to 100,000"),
        # 125,000 DGX H100 at 3 a 25 kW rack (7 kW each) are over 41,000 GPU racks alone: past the limit
        (["--system", "dgx-h100", "--gpus", "1000000"], "racks are more than a plan may have (25,000): raise "
         "the rack cap to fit more nodes a rack, choose a denser system than the DGX H100"),
        # an intent field's error names the flag that gave it
        (["--system", "dgx-h100", "--gpus", "64", "--oversubscription", "0.5"],
         "--oversubscription: '0.5' must be at least 1 (1:1 is non-blocking"),
        (["--system", "dgx-h100", "--gpus", "64", "--oversubscription", "0"],
         "--oversubscription: '0' must be at least 1 (1:1 is non-blocking"),
        (["--system", "dgx-h100", "--gpus", "64", "--rack-kw", "1e6"], "--rack-kw: takes at most 1,000 (not 1,000,000)"),
        (["-t", "medium", "--set", "facility.pue=0.5"], "setting facility.pue: PUE is at least 1.0: a facility "
         "cannot use less power than its IT load (allowed: 1.0 to 3.0)"),
        (["--system", "dgx-h100", "--gpus", "64", "--rack-kw", "0.1"], "--rack-kw: one DGX H100 draws 7 kW typical"),
        # an air-cooling limit below the rack cap is what binds the air-cooled racks: named as such
        (["--system", "dgx-h100", "--gpus", "64", "--air-limit", "0.1"], "--air-limit: one DGX H100 draws 7 kW "
         "typical (10.2 kW max), more than the 0.1 kW air-cooling limit of an air-cooled rack"),
        (["--system", "dgx-h100", "--gpus", "64", "--nodes", "3"],
         "--gpus 64 and --nodes 3 both size the plan: give one of them"),
        (["--requests-per-s", "50"], "--requests-per-s describes an inference service: add --inference"),
        (["--system", "dgx-h100", "--gpus", "8", "--switch", "dgx-h100"],
         "switch: the catalog has no switch 'dgx-h100' (switches: "),
        (["-t", "medium", "--latency-ms", "20", "--output-tokens", "100"],
         "--latency-ms and --output-tokens describe an inference service"),
        (["-t", "medium", "--set", "plant"], "'plant' is not SECTION.FIELD=VALUE"),
        (["-t", "medium", "--set", "schedul.plant=in_place"], "there is no settings section 'schedul' (sections: "),
        # twelve of the facility's fields, then how many more and where they are: the line whole, not cut
        (["-t", "medium", "--set", "facility.nosuch=1"], "more: the keys of settings.facility in a plan file) "
         "(see 'cluster-planner new --help')"),
        (["-t", "medium", "--set", "schedule.plan=in_place"], "settings section 'schedule' has no field 'plan': "
         "did you mean plant?"),
        (["-t", "medium", "--set", "schedule.plant=yes"], "setting schedule.plant: Input should be 'auto', 'new' or 'in_place'"),
    ]
    for flags, message in cases:
        try:
            code, out = run(capsys, "new", *flags, "-o", str(target))
        except SystemExit as exc:  # argparse refuses bad values itself
            code, out = exc.code, capsys.readouterr()
        assert code != 0, flags
        assert message in out.err, (flags, out.err)
        assert "Traceback" not in out.err
        assert not target.exists()


def test_storage_spares_and_an_inference_target_from_flags(capsys, tmp_path):
    # 16 HGX H100, 3 spares asked, storage of at least 5,000 TB: 5,000 / 250 TB = 20 appliances.
    plan = tmp_path / "s.json"
    code, out = run(capsys, "new", "--system", "hgx-h100-8", "--nodes", "16", "--spares", "3", "--storage-tb", "5000",
                    "-o", str(plan))
    assert code == 0, out.err
    r = check(capsys, plan)
    assert (r["totals"]["nodes"], r["goodput"]["spare_nodes"], r["storage"]["storage_devices"]) == (19, 3, 20)
    # An inference target alone sizes the GPUs: the serving model's GPUs needed, in whole nodes.
    plan = tmp_path / "i.json"
    code, out = run(capsys, "new", "--system", "h100x2-inference", "--inference", "--requests-per-s", "50",
                    "--model", "llama3-8b", "--prompt-tokens", "2048", "--output-tokens", "128", "-o", str(plan))
    assert code == 0, out.err
    assert "info: 50 requests/s of 2,048 prompt and 128 output tokens need" in out.out
    r = check(capsys, plan)
    needed = r["workload"]["inference"]["gpus_needed"]
    assert r["totals"]["gpus"] == 2 * -(-needed // 2)
    code, out = run(capsys, "new", "--system", "hgx-h100-8", "-o", str(tmp_path / "x.json"))
    assert code != 0 and "--system needs --gpus or --nodes" in out.err


def test_a_rack_scale_system_over_the_rack_cap_is_refused_with_what_fits(capsys, tmp_path):
    # A GB200 NVL72 is one rack of 120 kW typical, 132 kW max (catalog: NVIDIA DGX GB200 user
    # guide; 4 x 33 kW power shelves carry the nameplate): 120 > 60, and a rack cannot be
    # split, so 576 GPUs (8 of them) cannot stand in 60 kW racks. A DGX B200 (10 kW typical)
    # fits 6 to a 60 kW rack, so it is among the systems named.
    target = tmp_path / "nvl.json"
    code, out = run(capsys, "new", "--gpus", "576", "--system", "gb200-nvl72", "--rack-kw", "60", "-o", str(target))
    assert code == 2 and out.out == "" and not target.exists()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.err
    for part in ("--rack-kw:", "draws 120 kW typical (132 kW max)", "more than the 60 kW rack cap", "cannot be split",
                 "DGX B200 (dgx-b200: 8 GPUs, 10 kW)", "Raise the rack cap to at least 120 kW"):
        assert part in lines[0], part
    assert "gb300-nvl72" not in lines[0]  # 132 kW typical does not fit 60 kW either


def test_a_rack_cap_between_typical_and_max_caps_the_racks_and_warns(capsys, tmp_path):
    # At 125 kW the NVL72's 120 kW typical fits: 8 racks placed, each capped at the 125 kW
    # asked (not the rack type's 140 kW), and its 132 kW nameplate over that cap is a warning.
    target = tmp_path / "nvl.json"
    code, out = run(capsys, "new", "--gpus", "576", "--system", "gb200-nvl72", "--rack-kw", "125", "-o", str(target))
    assert code == 0, out.err
    r = check(capsys, target)
    gpu_racks = [rack for rack in r["racks"] if rack["gpus"]]
    assert len(gpu_racks) == 8 and {rack["cap_kw"] for rack in gpu_racks} == {125}
    over = {f["where"]: f["severity"] for f in r["findings"] if f["code"] == "rack.power.nameplate_over_cap"}
    assert all(over.get(rack["id"]) == "warning" for rack in gpu_racks)


def test_a_fabric_slower_than_the_nics_runs_them_at_its_rate(capsys, tmp_path):
    # 64 GPUs of DGX H100 = 8 nodes x 8 ConnectX-7 400G NICs = 64 NICs. On 200G InfiniBand
    # (QM9700 split into 128 x NDR200) each NIC runs one link at 200G: 64 node-leaf links of
    # 200 Gb/s, all on one 128-port switch (64 <= 128: one tier), cabled and optically
    # fitted for 200G. Before, each NIC was counted as 2 x 200G links (128) and the check
    # said the NICs trained down, an error fix could not clear.
    plan, csv_path = tmp_path / "ib200.json", tmp_path / "links.csv"
    code, out = run(capsys, "new", "--system", "dgx-h100", "--gpus", "64", "--fabric", "ib200", "-o", str(plan))
    assert code == 0, out.err
    assert "info: fabric: DGX H100's 400 Gb/s compute NIC links run at 200 Gb/s" in out.out
    r = check(capsys, plan)
    assert [f["code"] for f in r["findings"] if f["severity"] == "error"] == []
    assert r["network"]["switch_model"] == "qm9700-ndr200" and r["network"]["tiers"] == 1
    assert r["cables"]["by_tier"]["node-leaf"] == 64
    code, _ = run(capsys, "cables", str(plan), "--csv", str(csv_path))
    assert code == 0
    compute = [row for row in csv.DictReader(csv_path.open()) if row["tier"] == "node-leaf"]
    assert len(compute) == 64 and {row["gbps"] for row in compute} == {"200"}
    assert all(row["part"].startswith("200G ") for row in compute)  # 200G cables (AOC/DAC), no 400G part
    code, out = run(capsys, "fix", str(plan), "-o", str(tmp_path / "fixed.json"))
    assert code == 0 and "0 errors left" in out.out


def test_an_inference_target_sizes_the_gpus_from_a_template_too(capsys, tmp_path):
    # without --system the system a search chooses (8-GPU nodes for Llama 3 70B at 50
    # requests/s), and from a template its node; the template's 16 nodes do not stand in for the
    # count: the GPUs are the fewest whole nodes whose replicas serve the rate, so the plan has
    # no capacity error and a node less would have one
    for argv, node_gpus in ((["--inference", "--model", "llama3-70b", "--requests-per-s", "50"], 8),
                            (["-t", "inference", "--requests-per-s", "500"], 2)):
        plan = tmp_path / "i.json"
        code, out = run(capsys, "new", *argv, "-o", str(plan))
        assert code == 0, out.err
        assert "requests/s a replica" in out.out and "requests/s and" not in out.out  # per replica, not per GPU
        assert "ERROR" not in out.out
        r = check(capsys, plan)
        inference = r["workload"]["inference"]
        gpus = r["totals"]["gpus"] - r["goodput"]["spare_nodes"] * node_gpus
        assert gpus == node_gpus * -(-inference["gpus_needed"] // node_gpus), argv
        assert not [f for f in r["findings"] if f["code"] == "workload.inference.capacity"]
        if argv[0] == "--inference":  # the plan says what was asked in words, not field names
            description = json.loads(plan.read_text())["description"]
            assert description.startswith("Designed from the intent: Llama 3 70B, an inference service, 50 "
                                          "requests/s, on the GPU system a search of the catalog chose ("), description
            code, out = run(capsys, "check", str(plan))  # and check's text gives the serving figures
            for words in ("Inference time per output token (operating batch)", "Inference time to first token",
                          "Requests a replica serves", "Inference output per GPU, prefill included"):
                assert words in out.out, words
            tpot = next(line for line in out.out.splitlines() if "time per output token" in line)
            assert tpot.split()[-2:] == [f"{inference['tpot_ms']:,.1f}", "ms"]
            # memory per GPU: Llama 3 70B's 70.6e9 x 2 B over the replica's GPUs, and the KV cache
            # of its operating batch (1,280 tokens x 327,680 B a sequence) beside it
            stated = json.loads(plan.read_text())["settings"]["workload"]
            replica = stated["inference_gpus_per_replica"] * stated["inference_pipeline_stages"]
            weights = next(line for line in out.out.splitlines() if "Inference weights per GPU" in line)
            assert weights.split()[-2:] == [f"{70.6e9 * 2 / 1e9 / replica:,.1f}", "GB"]
            kv = next(line for line in out.out.splitlines() if "Inference KV cache per GPU" in line)
            assert kv.split()[-2:] == [f"{inference['batch'] * 1280 * 327_680 / 1e9 / replica:,.1f}", "GB"]
            # the training step's figures are not a serving plan's: no empty lines, no training batch
            section = out.out.split("\nWorkload\n")[1].split("\n\n")[0]
            assert "Training FLOPs per token" not in section and "Global batch" not in section
            assert "Step time" not in section and "Memory needed per GPU" not in section
            assert not [line for line in section.splitlines() if line.split()[-1] == "-"]


def test_new_says_what_the_intent_cannot_hold(capsys, tmp_path):
    # 3 nodes of 2 GPUs for 500 requests/s: the count is the user's, the shortfall is an error
    # new prints (check lists the same one)
    plan = tmp_path / "i.json"
    code, out = run(capsys, "new", "-t", "inference", "--requests-per-s", "500", "--nodes", "3", "-o", str(plan))
    assert code == 0, out.err
    errors = [line for line in out.out.splitlines() if line.startswith("  ERROR ")]
    assert len(errors) == 1 and errors[0].startswith("  ERROR workload.inference.capacity: 500 requests/s need ")
    # the GPUs needed: whole replicas for 500 requests/s at what a replica serves; 6 placed, the
    # rest in nodes of 2 (a replica of 1 GPU serving 11.67 requests/s: 43 needed, 37 more, 19 nodes)
    inf = check(capsys, plan)["workload"]["inference"]
    w = json.loads(plan.read_text())["settings"]["workload"]
    need = math.ceil(500 / inf["requests_per_s_per_replica"] - 1e-9) * w["inference_gpus_per_replica"]
    more = need - 6
    assert f"need {need} GPUs" in errors[0] and errors[0].endswith(
        f"the plan has 6: add {more} GPUs ({math.ceil(more / 2)} more nodes of 2: Racks > Auto-place nodes) "
        "or lower the target")
    # the capacity error carries no automatic fix (the count is the user's), and new says so
    assert f"the plan has 1 error: 'cluster-planner check {plan}' lists them; none has an automatic fix" in out.out
    assert [f["code"] for f in check(capsys, plan)["findings"] if f["severity"] == "error"] == [
        "workload.inference.capacity"]


def test_a_batch_that_is_not_whole_sequences_is_said_and_shown_in_whole_tokens(capsys, tmp_path):
    # 6,000 tokens of 4,096-token sequences are 1.46 sequences: one sequence is kept, and said
    plan = tmp_path / "b.json"
    code, out = run(capsys, "new", "--gpus", "64", "--system", "dgx-h100", "--batch-tokens", "6000", "-o", str(plan))
    assert code == 0, out.err
    assert ("warning: The global batch of 6,000 tokens is 1.46 sequences of 4,096 tokens; set to 1 sequence "
            "(4,096 tokens)") in out.out
    code, out = run(capsys, "new", "--gpus", "64", "--system", "dgx-h100", "--batch-tokens", "1", "-o", str(plan))
    assert "warning: The global batch of 1 token is less than one sequence of 4,096 tokens" in out.out
    code, out = run(capsys, "check", str(plan))
    lines = {line.split("  ")[1].strip(): line.rsplit("  ", 1)[1] for line in out.out.splitlines()
             if line.startswith("  ") and "  " in line.strip() and line.split("  ")[1].strip()}
    assert lines["Global batch"] == "4,096 tokens" and lines["Sequence length"] == "4,096 tokens"


def test_new_designs_for_the_attention_kernel_the_stack_runs(capsys, tmp_path):
    # Llama 3 70B at 8K on 64 H100: the same intent with Transformer Engine's cuDNN attention
    # gets its attention at cuDNN's measured H100 rate at 8K (causal forward 529, backward 518
    # TFLOP/s in the FlashAttention-3 paper: 3.5 / (1/529 + 2.5/518) = 521.1 of 989, x 2 for
    # the causal half) against FlashAttention-2's 32% (x 2), and a faster step.
    reports = {}
    for kernel in ("auto", "cudnn"):
        plan = tmp_path / f"{kernel}.json"
        code, out = run(capsys, "new", "--gpus", "64", "--system", "dgx-h100", "--model", "llama3-70b", "--seq-len",
                        "8192", "--attention-kernel", kernel, "-o", str(plan))
        assert code == 0, out.err
        reports[kernel] = check(capsys, plan)["workload"]
    assert reports["auto"]["attention_efficiency"] == 0.64
    assert reports["cudnn"]["attention_efficiency"] == round(2 * 3.5 / (1 / 529 + 2.5 / 518) / 989, 4)
    assert reports["cudnn"]["tokens_per_s"] > reports["auto"]["tokens_per_s"]
    with pytest.raises(SystemExit) as exc:  # argparse refuses a kernel it does not know
        run(capsys, "new", "--gpus", "64", "--system", "dgx-h100", "--attention-kernel", "flash4",
            "-o", str(tmp_path / "x.json"))
    assert exc.value.code == 2 and "invalid choice: 'flash4'" in capsys.readouterr().err


def test_set_gives_any_setting_and_says_when_a_flag_held_another(capsys, tmp_path):
    # the medium template (16 HGX H100, liquid-cooled, 2 in-rack CDUs) in a colocation hall at PUE
    # 1.3: no building plant to wait for; the CDUs (33 weeks) gate it: 33 + 8 weeks commissioning
    # + 7 racks x 1 crew-day / (1 crew x 5 days) = 42.4 weeks = 296.8 days -> month 10
    plan = tmp_path / "colo.json"
    code, out = run(capsys, "new", "-t", "medium", "--set", "schedule.plant=in_place", "--set", "facility.pue=1.3",
                    "--set", "schedule.cooling_weeks=33", "-o", str(plan))
    assert code == 0, out.err
    assert "note:" not in out.out
    r = check(capsys, plan)
    assert r["totals"]["racks"] == 7
    assert (r["schedule"]["critical_part"], r["schedule"]["energized_month"]) == ("cooling", 10)
    assert r["schedule"]["energized_weeks"] == pytest.approx(42.4)
    assert r["totals"]["facility_power_kw"] == pytest.approx(r["totals"]["it_power_kw"] * 1.3, abs=0.01)
    # a flag says the same setting otherwise: the flag wins, and new says so
    code, out = run(capsys, "new", "-t", "medium", "--fabric", "ib200", "--set", "fabric.technology=ib400",
                    "-o", str(tmp_path / "x.json"))
    assert code == 0, out.err
    assert 'note: --set fabric.technology="ib400": the plan holds "ib200"' in out.out
    # the workload's inference setting is --inference: a requests target alone sizes the GPUs
    code, out = run(capsys, "new", "--system", "dgx-h100", "--model", "llama3-70b", "--set",
                    "workload.inference=true", "--requests-per-s", "10", "-o", str(tmp_path / "s.json"))
    assert code == 0, out.err
    assert "info: 10 requests/s of 1,024 prompt and 256 output tokens need" in out.out


def test_a_write_target_faster_than_the_storage_links_says_the_time_they_take(capsys, tmp_path):
    # 32 DGX H100, each with 2 x 400G storage links: 32 x 800 / 8 = 3,200 GB/s. Llama 3 70B's
    # checkpoint (70.6B parameters x 14 bytes: BF16 weights, FP32 master and Adam's two moments)
    # is 988.4 GB: 0.31 s through those links, not "0 s", however fast the target asked.
    code, out = run(capsys, "new", "--system", "dgx-h100", "--gpus", "256", "--fabric", "ib400", "--model",
                    "llama3-70b", "--checkpoint-write-s", "0.1", "-o", str(tmp_path / "p.json"))
    assert code == 0
    assert "nodes' storage links carry 3,200 GB/s: it takes 0.3 s however much storage is placed" in out.out


def test_a_rack_scale_systems_tray_is_no_system_to_design_of(capsys, tmp_path):
    # A GB200 compute tray is 4 B200 of an NVL72 rack (NVIDIA DGX GB200 user guide: 18 compute
    # trays and 9 NVLink switch trays in one rack): 18 of them in ordinary racks are no 72-GPU
    # NVLink domain, so the design refuses them and names the whole rack to plan with.
    target = tmp_path / "trays.json"
    code, out = run(capsys, "new", "--system", "gb200-compute-tray", "--gpus", "72", "-o", str(target))
    assert code == 2 and not target.exists()
    line = out.err.strip()
    assert line.startswith("cluster-planner: --system: the GB200 NVL72 compute tray") and "\n" not in line
    assert "plan with the GB200 NVL72 rack" in line and "(gb200-nvl72)" in line


def test_a_heavy_rack_spreads_its_load_and_the_note_shows_the_figures(capsys, tmp_path):
    # GB200 NVL72: 1,360 kg (catalog: ServeTheHome, 1.36 t), its rack included (the system is its
    # own rack: no second enclosure, as the check counts it) on 600 x 1,200 mm = 0.72 m^2:
    # 1,889 kg/m^2 over the 1,224 kg/m^2 rating (TIA-942 Rated-3).
    # 1,360 / 1,224 = 1.111 m^2 = 600 mm x 1,852 mm: an aisle share of 652 mm, 700 in whole 50 mm.
    code, out = run(capsys, "new", "--system", "gb200-nvl72", "--gpus", "576", "--rack-kw", "140",
                    "-o", str(tmp_path / "nvl.json"))
    assert code == 0, out.err
    assert ("one GB200 NVL72 rack (72 x B200, 36 Grace) weighs 1,360 kg, its rack included, 1,889 kg/m² "
            "on its 600 x 1,200 mm, more than the floor's 1,224 kg/m² rating: each rack spreads its load over a "
            "700 mm aisle share") in out.out
    # and the check finds the floor carries it, as the design spread it
    report = json.loads(run(capsys, "check", "--json", str(tmp_path / "nvl.json"))[1].out)
    assert not [f for f in report["findings"] if f["code"] == "rack.floor.over_rating"]


def test_a_shape_setting_a_model_preset_ignores_is_noted(capsys, tmp_path):
    # Llama 3 70B is dense: 8 experts set on it change nothing the plan evaluates; said, as a
    # --set the design overrides is
    plan = tmp_path / "e.json"
    code, out = run(capsys, "new", "--gpus", "64", "--system", "dgx-h100", "--model", "llama3-70b", "--set",
                    "workload.experts=8", "-o", str(plan))
    assert code == 0, out.err
    assert "note: --set workload.experts=8: not used, the model preset llama3-70b has its own shape" in out.out
    code, out = run(capsys, "new", "--gpus", "64", "--system", "dgx-h100", "--set", "workload.heads=64", "-o",
                    str(plan))
    assert "workload.heads" not in out.out  # the template's custom shape takes it
