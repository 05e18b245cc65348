import sys

from cluster_planner import main

sys.exit(main())
