"""File > New plan…: an intent's fields with a live preview, templates as starting points.

Why it is long: the dialog's every field and the preview's every line, each with the design
it must reach.
"""

from __future__ import annotations

from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from ui import fmt
from ui.new_plan_dialog import NewPlanDialog

CAT = default_catalog()


def choose(dialog, system, gpus, rack_kw):
    dialog.system.setCurrentIndex(dialog.system.findData(system))
    dialog.gpus.setValue(gpus)
    dialog.rack_kw.setValue(rack_kw)


def test_the_b200_intent_previews_its_totals_and_designs_without_errors(qtbot):
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    choose(dialog, "dgx-b200", 1024, 40)
    dialog.fabric.setCurrentIndex(dialog.fabric.findData("ib400"))
    dialog.model.setCurrentIndex(dialog.model.findData("llama3-70b"))
    dialog.refresh()  # the timer's work, now
    # 1,024 / 8 = 128 DGX B200 for the job, and 5 spares for the 128 x 2.9e-3 x 3 days = 1.1
    # nodes expected in repair at once (fewer than 5 at 99.4 % of failures, Poisson), stocked: the 128 fill 4 units of 32 on 64-port
    # switches, no port is free. 128 nodes, 1,024 GPUs placed; the preview says why.
    text = dialog.preview.text()
    assert text.startswith("1,024 GPUs in 128 nodes (5 nodes stocked), ")
    assert "0 errors" in text and "tokens/s" in text
    assert "5 stocked (not placed): the fabric the job needs has no free port for them" in text
    # the days the toolbar will show once created: with failures, beside the failure-free ones
    report = evaluate(dialog.design.plan, CAT)
    failing, free = report.sections["goodput"].time_to_train_days, report.workload.time_to_train_days
    assert f"days to train with failures ({fmt.number(free)} if nothing failed)" in text
    assert f", {fmt.number(failing)} days to train with failures" in text and failing > free
    plan = dialog.design.plan
    assert sum(1 for p in plan.placements if p.device == "dgx-b200") == 128


def test_a_template_fills_the_fields_and_a_changed_field_overrides_it(qtbot):
    dialog = NewPlanDialog(CAT, template="medium")
    qtbot.addWidget(dialog)
    # medium: 16 nodes x 8 H100 = 128 GPUs, on the fabric their 400G InfiniBand NICs speak: NDR400.
    assert dialog.gpus.value() == 128 and dialog.fabric.currentData() == "auto"
    assert dialog.design.plan.settings.fabric.technology == "ib400"
    assert dialog.preview.text().startswith("128 GPUs in 16 nodes")
    dialog.gpus.setValue(256)
    # until the timer designs again, the previous figures are greyed and say they are
    assert "color" in dialog.preview.styleSheet() and "previous fields" in dialog.preview.toolTip()
    dialog.refresh()
    assert dialog.changes() == {"gpus": 256}
    assert dialog.preview.text().startswith("256 GPUs in 32 nodes")
    assert dialog.preview.styleSheet() == "" and dialog.preview.toolTip() == ""


def test_fields_that_cannot_hold_say_why_and_disable_create(qtbot):
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    choose(dialog, "gb200-nvl72", 576, 60)
    dialog.refresh()
    # A GB200 NVL72 is one rack of 120 kW typical (132 kW max): it cannot stand in a 60 kW
    # rack, and the preview says so as `new` does, with the 10 kW DGX B200 among what fits.
    text = dialog.preview.text()
    assert dialog.design is None and text.startswith("Rack power cap: a GB200 NVL72")
    assert "more than the 60 kW rack cap" in text and "DGX B200 (dgx-b200: 8 GPUs, 10 kW)" in text
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    dialog.rack_kw.setValue(140)
    dialog.refresh()
    assert dialog.preview.text().startswith("576 GPUs in 8 nodes")  # 576 / 72 = 8 racks of 120 kW in 140 kW
    dialog.system.setCurrentIndex(dialog.system.findData("dgx-b200"))
    dialog.rack_kw.setValue(5)
    dialog.refresh()
    # One 10 kW DGX B200 cannot go into a 5 kW rack: the intent's rack cap is named.
    assert dialog.design is None and dialog.preview.text().startswith("Rack power cap: one DGX B200 draws 10 kW typical")
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()


def test_a_plan_past_the_size_limits_is_refused_in_the_preview_by_its_field(qtbot):
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    # A million H100 GPUs in DGX H100 (7 kW typical) at a 30 kW cap: at most 4 a rack, so at
    # least 1,000,000 / 8 / 4 = 31,250 racks, past the 25,000 a plan may have. The preview
    # refuses it (not only the save) and names the field to change.
    choose(dialog, "dgx-h100", 1_000_000, 30)
    dialog.refresh()
    text = dialog.preview.text()
    racks = int(text.split(" racks are more")[0].split(": ")[-1].replace(",", ""))
    assert dialog.design is None and text.startswith("Rack power cap: ") and racks >= 31_250, text
    assert "more than a plan may have (25,000): raise the rack cap" in text
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()


def test_over_a_template_the_fields_show_what_another_system_makes_of_it(qtbot):
    dialog = NewPlanDialog(CAT, template="medium")
    qtbot.addWidget(dialog)
    assert (dialog.gpus.value(), dialog.rack_kw.value()) == (128, 30.0)  # medium: 16 DGX H100 in 30 kW racks
    # Another system over the template keeps its 16 nodes: 16 GB200 NVL72 = 16 x 72 = 1,152 GPUs,
    # each a 120 kW rack, so the racks are not the 30 kW shown before: the fields now say what
    # the preview and the plan have, not the DGX H100's figures.
    dialog.system.setCurrentIndex(dialog.system.findData("gb200-nvl72"))
    dialog.refresh()
    assert dialog.preview.text().startswith("1,152 GPUs in 16 nodes")
    assert dialog.gpus.value() == 1152 and dialog.rack_kw.value() >= 120
    assert dialog.changes() == {"system": "gb200-nvl72"}  # what the user changed, still alone
    # a count typed now is the user's: 128 GPUs are 2 NVL72 (144 GPUs)
    dialog.gpus.setValue(128)
    dialog.refresh()
    assert dialog.preview.text().startswith("144 GPUs in 2 nodes") and dialog.gpus.value() == 128
    # and a cap typed is kept and refused where the system cannot stand in it
    dialog.rack_kw.setValue(30)
    dialog.refresh()
    assert dialog.design is None and dialog.preview.text().startswith("Rack power cap: a GB200 NVL72")


def test_storage_site_and_inference_fields_reach_the_design_and_say_their_sources(qtbot):
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    choose(dialog, "hgx-h100-8", 128, 40)
    dialog.model.setCurrentIndex(dialog.model.findData("llama3-70b"))
    # Defaults and their sources: TIA-942's 1,224 kg/m² floor, the 25 kW air-cooling limit.
    assert dialog.floor_rating.value() == 1224 and "TIA-942" in dialog.floor_rating.toolTip()
    assert dialog.air_limit.value() == 25 and "Default 25 kW" in dialog.air_limit.toolTip()
    assert dialog.write_s.text() == "Auto" and "10 GB/s per node" in dialog.write_s.toolTip()
    assert "Planner assumption" in dialog.prompt_tokens.toolTip()
    dialog.refresh()
    before = dialog.preview.text()
    # 16 nodes x 10 GB/s -> 7 appliances of 25 GB/s; a 988 GB checkpoint in 2 s needs 494 GB/s
    # -> 20 appliances, 5,000 TB of them at 250 TB each: the preview follows (more racks).
    dialog.write_s.setValue(2)
    dialog.refresh()
    plan = dialog.design.plan
    assert sum(1 for p in plan.placements if p.device == "pfs-appliance") == 20
    assert dialog.preview.text() != before
    dialog.floor_rating.setValue(800)
    dialog.air_limit.setValue(20)
    dialog.refresh()
    plan = dialog.design.plan
    assert (plan.settings.floor.floor_rating_kg_m2, plan.settings.facility.air_cooling_limit_kw) == (800, 20)
    # An inference target: the serving figures, greyed out for training, reach the workload settings.
    assert not dialog.requests_per_s.isEnabled()
    dialog.inference.setChecked(True)
    assert dialog.requests_per_s.isEnabled()
    dialog.requests_per_s.setValue(40)
    dialog.prompt_tokens.setValue(2048)
    dialog.output_tokens.setValue(128)
    dialog.latency_ms.setValue(40)
    dialog.refresh()
    w = dialog.design.plan.settings.workload
    assert (w.inference, w.requests_per_s, w.prompt_tokens, w.output_tokens, w.latency_ms_per_token) == (
        True, 40, 2048, 128, 40)


def test_a_template_fills_the_more_fields(qtbot):
    dialog = NewPlanDialog(CAT, template="inference")
    qtbot.addWidget(dialog)
    # The inference template serves Llama 3 8B: the box is ticked, the settings' serving defaults shown.
    assert dialog.inference.isChecked() and dialog.prompt_tokens.value() == 1024
    assert dialog.changes() == {}
    dialog.floor_rating.setValue(900)
    assert dialog.changes() == {"floor_rating_kg_m2": 900}


def test_the_fabric_defaults_to_what_the_nics_speak(qtbot):
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    assert dialog.fabric.currentData() == "auto" and "NICs" in dialog.fabric.toolTip()
    # HGX B300: eight 800 Gb/s ConnectX-8 InfiniBand NICs: 800G InfiniBand (XDR) on Quantum-X800
    choose(dialog, "hgx-b300-8", 512, 60)
    dialog.refresh()
    assert dialog.changes()["fabric"] is None
    assert dialog.design.plan.settings.fabric.technology == "ib800"
    assert "0 errors" in dialog.preview.text()
    # NDR 400G: each ConnectX-8 runs two 400G planes at its full 800G (ConnectX-8 firmware
    # release notes, planarized topology), so this fabric holds too
    dialog.fabric.setCurrentIndex(dialog.fabric.findData("ib400"))
    dialog.refresh()
    assert dialog.design.plan.settings.fabric.technology == "ib400" and "0 errors" in dialog.preview.text()
    dialog.fabric.setCurrentIndex(dialog.fabric.findData("ib200"))  # named: kept
    dialog.refresh()  # 200G ports: not even one 400G plane fits, so each plane's link runs at 200G
    text = dialog.preview.text()
    assert dialog.design.plan.settings.fabric.technology == "ib200" and "0 errors" in text
    # 2 planes x 200G of an 800G NIC: 400 / 800 = half its bandwidth used, said in the preview
    assert "800 Gb/s compute NIC links run at 200 Gb/s" not in text  # a plane is 400G, not 800G
    assert "400 Gb/s compute NIC links run at 200 Gb/s" in text


def test_every_cluster_field_has_a_tooltip_and_a_changed_template_its_own_description(qtbot):
    dialog = NewPlanDialog(CAT, template="medium")
    qtbot.addWidget(dialog)
    for field in (dialog.system, dialog.gpus, dialog.rack_kw, dialog.cooling, dialog.fabric):
        assert field.toolTip(), field
    # the rack cap's default and where it comes from
    assert "Default 30 kW" in dialog.rack_kw.toolTip() and "30kW per rack" in dialog.rack_kw.toolTip()
    choose(dialog, "dgx-b200", 1024, 30)
    dialog.refresh()
    plan = dialog.design.plan
    # no longer medium's 16 nodes of H100: the description says what it was made from
    assert "H100" not in plan.description and "template medium" in plan.description
    assert "NVIDIA DGX B200, 1,024 GPUs" in plan.description  # in words, not field names


def test_the_preview_shows_the_searched_layout_its_runners_up_and_keeps_the_batch(qtbot):
    # Llama 3 405B as Meta trained it: 16,384 H100 on 400G RoCE, 8,192-token sequences, a
    # 16M-token batch (2,048 sequences of 8,192 = 16,777,216 tokens: Dubey et al. 2024, table 4).
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    choose(dialog, "dgx-h100", 16384, 40)
    dialog.fabric.setCurrentIndex(dialog.fabric.findData("eth400_roce"))
    dialog.model.setCurrentIndex(dialog.model.findData("llama3-405b"))
    dialog.seq_len.setValue(8192)
    dialog.batch_tokens.setValue(2048 * 8192)
    dialog.refresh()
    assert dialog.changes()["batch_tokens"] == 16_777_216 and dialog.changes()["seq_len"] == 8192
    w = dialog.design.plan.settings.workload
    assert w.global_batch_tokens == 16_777_216  # the batch asked, kept
    lines = dialog.preview.text().splitlines()
    layout = [line for line in lines if line.startswith("Layout: ")]
    runners = [line for line in lines if line.startswith("Runner-up: ")]
    assert len(layout) == 1 and len(runners) == 2
    # the preview's layout is the plan's, every GPU of the job in TP x PP x DP
    assert f"TP {w.tp} x PP {w.pp} x DP {w.dp}" in layout[0] and w.tp * w.pp * w.dp == 16384
    assert "MFU" in layout[0] and all("MFU" in r for r in runners)
    # 2,049 sequences is odd and prime to every DP of 16,384 GPUs (a power of two), so no
    # layout splits it: a warning says the batch changed and by how much.
    dialog.batch_tokens.setValue(2049 * 8192)
    dialog.refresh()
    text = dialog.preview.text()
    assert "The global batch of 2,049 sequences" in text and "cannot be split" in text


def test_an_inference_target_sizes_the_gpus_and_leaves_the_training_fields(qtbot):
    # on the medium template: ticking the service and typing 50 requests/s turns the GPU count
    # (untyped) to "Sized for the requests", greys the training fields, and the design sizes
    # the GPUs as `new` does: whole nodes for the replicas the rate needs
    dialog = NewPlanDialog(CAT, template="medium")
    qtbot.addWidget(dialog)
    assert dialog.gpus.value() == 128 and dialog.batch_tokens.isEnabled()
    dialog.inference.setChecked(True)
    assert not dialog.batch_tokens.isEnabled() and not dialog.train_tokens_b.isEnabled()
    assert dialog.gpus.value() == 128  # no target yet: the count stays
    dialog.requests_per_s.setValue(50)
    assert dialog.gpus.value() == 0 and dialog.gpus.text() == "Sized for the requests"
    dialog.refresh()
    design = dialog.design
    assert design is not None
    sized = next(f for f in design.findings if f.code == "design.inference.sized")
    assert sized.message.startswith("50 requests/s of ")
    assert "0 errors, 1 warning\n" in dialog.preview.text()  # one warning, in the singular
    dialog.requests_per_s.setValue(0)  # no target: the template's count again, and 0 out of reach
    assert dialog.gpus.value() == 128 and dialog.gpus.minimum() == 1


def test_a_training_plans_gpu_count_never_reads_sized_for_the_requests(qtbot):
    dialog = NewPlanDialog(CAT, template="medium")
    qtbot.addWidget(dialog)
    dialog.gpus.setValue(0)  # the arrow's lowest: one GPU, not "Sized for the requests"
    assert dialog.gpus.value() == 1 and dialog.gpus.text() != "Sized for the requests"


def test_a_custom_model_asks_its_size(qtbot):
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    choose(dialog, "dgx-h100", 64, 40)
    dialog.model.setCurrentIndex(dialog.model.findData("llama3-70b"))
    assert not dialog.params_b.isEnabled() and dialog.model.currentText() == "Llama 3 70B"
    dialog.model.setCurrentIndex(dialog.model.findData("custom"))
    assert dialog.params_b.isEnabled()
    dialog.params_b.setValue(13)
    dialog.refresh()
    assert dialog.design.plan.settings.workload.model_params_b == 13


def test_the_attention_kernel_a_stack_runs_reaches_the_design(qtbot):
    dialog = NewPlanDialog(CAT, template="medium")
    qtbot.addWidget(dialog)
    assert dialog.attention_kernel.currentData() == "auto"
    assert "Transformer Engine" in dialog.attention_kernel.toolTip()
    before = dialog.design.plan
    dialog.attention_kernel.setCurrentIndex(dialog.attention_kernel.findData("cudnn"))
    dialog.refresh()
    assert dialog.changes() == {"attention_kernel": "cudnn"}
    after = dialog.design.plan
    assert (before.settings.workload.attention_kernel, after.settings.workload.attention_kernel) == ("auto", "cudnn")
    # An inference service trains nothing, but its prefill runs in the attention kernel: the
    # training fields wait, the kernel stays.
    dialog.inference.setChecked(True)
    assert dialog.attention_kernel.isEnabled() and not dialog.seq_len.isEnabled()


def test_the_system_list_offers_systems_not_a_racks_trays(qtbot):
    catalog = default_catalog()
    dialog = NewPlanDialog(catalog)
    qtbot.addWidget(dialog)
    offered = {dialog.system.itemData(i) for i in range(dialog.system.count())}
    assert {"dgx-h100", "gb200-nvl72", "gb300-nvl72"} <= offered
    assert not offered & {"gb200-compute-tray", "gb300-compute-tray"}


def test_the_preview_names_the_errors_the_plan_would_open_with(qtbot):
    """Llama 3 405B on one DGX H100: 819 GB of training state a GPU against its 80 GB; the
    preview says so, not only "1 error"."""
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    choose(dialog, "dgx-h100", 8, 30)
    dialog.model.setCurrentIndex(dialog.model.findData("llama3-405b"))
    dialog.refresh()
    lines = dialog.preview.text().splitlines()
    at = lines.index("1 error, 0 warnings") if "1 error, 0 warnings" in lines else next(
        i for i, x in enumerate(lines) if x.startswith("1 error,"))
    assert lines[at + 1].startswith("Error: Training needs 819.2 GB per GPU")


def test_the_greyed_model_size_is_the_presets_and_a_custom_size_comes_back(qtbot):
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    dialog.model.setCurrentIndex(dialog.model.findData("custom"))
    dialog.params_b.setValue(13.0)
    dialog.model.setCurrentIndex(dialog.model.findData("llama3-405b"))
    assert not dialog.params_b.isEnabled() and dialog.params_b.value() == 405.9  # the preset's, not 13
    dialog.model.setCurrentIndex(dialog.model.findData("custom"))
    assert dialog.params_b.isEnabled() and dialog.params_b.value() == 13.0
    assert dialog.changes().get("params_b") == 13.0
