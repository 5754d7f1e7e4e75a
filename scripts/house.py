"""The house's figures: the largest modules, classes and functions, the most parameters, and the modules that
import most of ours. ``python scripts/house.py [ROOT]`` (ROOT: a checkout, this one by default) prints the top
five of each; docs/performance.md ("The house") quotes them.

A figure that grows says where to look next: a module or a class that keeps growing has more than one job, a
function with a dozen parameters wants a value to carry them, a module that imports half the bot is its hub."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGES = ("durak", "storage", "bot", "handlers")
TOP = 5


def ours(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


def figures(root: Path) -> dict[str, list[tuple[int, str]]]:
    found: dict[str, list[tuple[int, str]]] = {"module lines": [], "class methods": [], "function lines": [],
                                               "parameters": [], "modules of ours imported": []}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            source = path.read_text()
            module = str(path.relative_to(root))
            found["module lines"].append((len(source.splitlines()), module))
            tree = ast.parse(source)
            imported = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    imported |= {a.name for a in node.names if ours(a.name)}
                elif isinstance(node, ast.ImportFrom) and node.module and ours(node.module) and node.level == 0:
                    imported.add(node.module)
                elif isinstance(node, ast.ClassDef):
                    methods = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
                    found["class methods"].append((len(methods), f"{module}:{node.name}"))
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    where = f"{module}:{node.name}"
                    found["function lines"].append(((node.end_lineno or node.lineno) - node.lineno + 1, where))
                    args = node.args
                    count = len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)
                    count -= 1 if args.args and args.args[0].arg in ("self", "cls") else 0
                    found["parameters"].append((count, where))
            found["modules of ours imported"].append((len(imported), module))
    return {kind: sorted(rows, reverse=True)[:TOP] for kind, rows in found.items()}


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    for kind, rows in figures(root).items():
        print(f"{kind}: " + ", ".join(f"{where} {n}" for n, where in rows))


if __name__ == "__main__":
    main()
