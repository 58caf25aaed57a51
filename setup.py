"""Which packages the wheel holds: every package under dp/, found (pyproject.toml has the rest).

setuptools' ``packages.find`` cannot add dp.migrations, which pyproject.toml maps to the
top-level migrations/ folder, so the list is built here: a new package under dp/ (an agent's
folder, dp/agents/<agent>/) ships without anyone listing it.
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["dp", "dp.*"]), "dp.migrations"])
