"""Reading recipe YAML without letting a hostile file exhaust memory or time.

Three limits: the file size (1 MB), the size of the document once aliases are
expanded (a "billion laughs" file is tiny on disk and astronomically large
when walked; so is a short list of aliases to one long string, which renders
into gigabytes), and nesting depth. The expanded size counts both nodes and
the text of every scalar. The expansion is measured on the composed
node graph with memoised sizes, so checking a bomb is linear in the file, not
in its expansion. Duplicate mapping keys, which YAML silently collapses, are
errors: in a recipe they are always a mistake.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dp.errors import DpError

MAX_RECIPE_BYTES = 1024 * 1024
MAX_EXPANDED_NODES = 100_000
# Text of all scalars with aliases expanded: a recipe renders its values into
# scripts, prompts and JSON output, so this bounds what a run can be made to build.
MAX_EXPANDED_CHARS = 8 * MAX_RECIPE_BYTES
MAX_DEPTH = 100


EXIT_INVALID = 2
EXIT_NOT_FOUND = 3


class RecipeError(DpError):
    """An invalid recipe (exit code 2) or one that cannot be found (exit code 3).

    One type from the file's bytes to its last validated step: what this
    module refuses reads like what the parser refuses.
    """

    def __init__(self, message: str, exit_code: int = EXIT_INVALID):
        super().__init__(message, exit_code=exit_code)


def read_recipe_text(path: Path) -> str:
    from dp.files import read_regular

    try:
        data = read_regular(path, MAX_RECIPE_BYTES + 1, whole=False)
    except FileNotFoundError:
        raise RecipeError(f"cannot read {path}: it does not exist") from None
    except DpError as exc:
        raise RecipeError(exc.message) from None
    if len(data) > MAX_RECIPE_BYTES:
        raise RecipeError(f"{path} is larger than 1 MB; recipes are limited to 1 MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecipeError(f"{path} is not UTF-8 text (byte {exc.start})") from None


def load_yaml(text: str, source: str) -> Any:
    import yaml

    if len(text.encode("utf-8", errors="replace")) > MAX_RECIPE_BYTES:
        raise RecipeError(f"{source} is larger than 1 MB; recipes are limited to 1 MB")
    loader = _bounded_loader_class(yaml)(text)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        raise RecipeError(f"{source}: invalid YAML: {_one_line(exc)}") from None
    except RecipeError as exc:
        raise RecipeError(f"{source}: {exc}") from None
    finally:
        loader.dispose()


def _one_line(exc: Exception) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
    hint = ""
    if "mapping values are not allowed" in problem:
        hint = "; quote the value or use a '|' block when it contains ': '"
    return " ".join(f"{problem}{where}{hint}".split())


_LOADER_CLASS = None


def _bounded_loader_class(yaml):
    """SafeLoader plus the expansion, depth and duplicate-key checks (built once, lazily)."""
    global _LOADER_CLASS
    if _LOADER_CLASS is not None:
        return _LOADER_CLASS

    class BoundedLoader(yaml.SafeLoader):
        nesting = 0

        def compose_node(self, parent, index):
            # Refuse deep nesting as it is read: letting the recursive composer
            # hit Python's recursion limit takes seconds on a '[[[[…' file.
            self.nesting += 1
            try:
                if self.nesting > MAX_DEPTH:
                    raise RecipeError(f"YAML is nested more than {MAX_DEPTH} levels deep")
                return super().compose_node(parent, index)
            finally:
                self.nesting -= 1

        def compose_document(self):
            node = super().compose_document()
            _check_expansion(node, yaml)
            return node

        def construct_mapping(self, node, deep=False):
            if isinstance(node, yaml.MappingNode):
                seen = set()
                for key_node, _ in node.value:
                    if isinstance(key_node, yaml.ScalarNode):
                        if key_node.value in seen:
                            raise yaml.constructor.ConstructorError(
                                None, None, f"duplicate key '{key_node.value}'",
                                key_node.start_mark,
                            )
                        seen.add(key_node.value)
            return super().construct_mapping(node, deep=deep)

    def as_text(loader, node):
        return loader.construct_scalar(node)

    def unsupported(loader, node):
        raise yaml.constructor.ConstructorError(
            None, None, f"YAML type {node.tag} is not supported in recipes", node.start_mark)

    # Recipe values end up in JSON output, templates and the environment: keep
    # them to JSON's types. Dates stay the text they were written as.
    BoundedLoader.add_constructor("tag:yaml.org,2002:timestamp", as_text)
    for tag in ("binary", "set", "omap", "pairs"):
        BoundedLoader.add_constructor(f"tag:yaml.org,2002:{tag}", unsupported)
    _LOADER_CLASS = BoundedLoader
    return BoundedLoader


def _check_expansion(root, yaml) -> None:
    """Refuse documents whose alias-expanded size or depth is out of bounds."""
    sizes: dict[int, tuple[int, int]] = {}
    active: set[int] = set()

    def size(node, depth: int) -> tuple[int, int]:
        """(nodes, scalar characters) below ``node``, aliases expanded, memoised."""
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in active:
            raise RecipeError("YAML alias refers to itself (recursive structure)")
        if depth > MAX_DEPTH:
            raise RecipeError(f"YAML is nested more than {MAX_DEPTH} levels deep")
        nodes, chars = 1, len(node.value) if isinstance(node, yaml.ScalarNode) else 0
        if isinstance(node, yaml.CollectionNode):
            active.add(key)
            for child in node.value:
                for part in child if isinstance(child, tuple) else (child,):
                    part_nodes, part_chars = size(part, depth + 1)
                    nodes, chars = nodes + part_nodes, chars + part_chars
                _check_totals(nodes, chars)
            active.discard(key)
        sizes[key] = (nodes, chars)
        return nodes, chars

    if root is not None:
        size(root, 0)


def _check_totals(nodes: int, chars: int) -> None:
    if nodes > MAX_EXPANDED_NODES:
        raise RecipeError(
            f"YAML expands to more than {MAX_EXPANDED_NODES:,} nodes (alias bomb?); refusing to load it"
        )
    if chars > MAX_EXPANDED_CHARS:
        raise RecipeError(
            f"YAML expands to more than {MAX_EXPANDED_CHARS // (1024 * 1024)} MB of text "
            "(aliases of a long string?); refusing to load it"
        )
