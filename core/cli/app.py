"""``python -m core app`` / ``spanscope app``: start the dashboard (:mod:`core.cli.launch`).

Every argument after ``app`` goes to ``streamlit run`` untouched, so :func:`core.cli.main`
hands them over before argparse reads them; this module declares the command for ``--help``.
"""

from __future__ import annotations

import argparse

from core.cli.common import Subparsers

NAME = "app"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    return subparsers.add_parser(
        NAME, add_help=False,
        help="start the dashboard on the bundled sample data, or on files and folders from "
        "disk with --data [[NAME:]ROLE=]PATH ... (ROLE gold, pred/system or annotator; without "
        "it the file name says the role; NAME names the set instead of the file name; "
        "PATH#format=FORMAT reads it in that format); further arguments go to streamlit run")


def run(args: argparse.Namespace) -> int:
    from core.cli.launch import run_app

    return run_app([])
