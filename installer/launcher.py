"""Entry point of the frozen build: the same CLI as the installed `cluster-planner`."""

import sys

from cluster_planner import main

if __name__ == "__main__":
    sys.exit(main())
