# Packaging metadata lives in pyproject.toml; this only maps resources/ into the wheel.
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["cluster_planner", "planner", "planner.*", "ui", "ui.*"]) + ["planner.resources"],
    package_dir={"planner.resources": "resources"},
)
