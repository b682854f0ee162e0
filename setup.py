"""Which files the wheel holds; the metadata is in ``pyproject.toml``.

``core`` and ``ui`` are packages as they stand. The dashboard's files at the repository's root
(``app.py``, ``pages/``, ``sample_data/``, ``.streamlit/config.toml``) become the package
``spanscope_dashboard``, so that ``spanscope app`` finds them after ``pip install .``
(``core/cli/launch.py``); in a checkout or after ``pip install -e .`` it uses the checkout itself.
"""

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

DASHBOARD = "spanscope_dashboard"


class BuildPy(build_py):
    """Leaves this script out of the dashboard package (it shares the repository's root)."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        return [m for m in super().find_package_modules(package, package_dir)
                if (m[0], m[1]) != (DASHBOARD, "setup")]


setup(
    packages=[*find_packages(include=["core", "core.*", "ui", "ui.*"]), DASHBOARD],
    package_dir={DASHBOARD: "."},
    package_data={
        "core": ["py.typed", "data/*.json", "data/techniques/*.txt"],  # py.typed: PEP 561
        DASHBOARD: ["pages/*.py", "sample_data/**/*", ".streamlit/config.toml"],
    },
    include_package_data=False,
    cmdclass={"build_py": BuildPy},
)
