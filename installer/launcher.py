"""Entry point of the frozen build: the same CLI as the installed `cluster-planner`."""

import multiprocessing
import sys

from cluster_planner import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # design sweeps start worker processes from the frozen executable
    sys.exit(main())
