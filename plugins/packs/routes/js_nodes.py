"""What every JavaScript reader asks of a tree-sitter node (its line, its place, the expression
inside parentheses and type assertions, whether it is a function) and the values they share.
A leaf: `js_facts` calls the readers beside it (`nest`, `nest_docs`, `nest_imports`,
`dotenv_loads`, `hapi_rest_tables`), which then need not import it back."""

from __future__ import annotations

import tree_sitter

from .model import HTTP_METHODS, NODE_ENV_DEFAULTS, Expr, Fallback, Lit, OneOf, Opaque, Sym

Node = tree_sitter.Node

# what an expression is read through: `(x)`, `x as T`, `x satisfies T`, `x!`, `await x`
TRANSPARENT = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression",
                         "non_null_expression", "await_expression"})  # fmt: skip
FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function"})
FUNCTIONS = FUNCTION_VALUES | {"function_declaration", "generator_function_declaration",
                               "method_definition"}  # fmt: skip
ROUTER_VERBS = frozenset(HTTP_METHODS) - {"trace"}  # Express has no app.trace in its documented API
# every method a router routes, in that order (Next's default export, Hapi's `*`)
ALL_METHODS = tuple(m.upper() for m in HTTP_METHODS if m in ROUTER_VERBS)


def unwrap(node: Node | None) -> Node | None:
    while node is not None and node.type in TRANSPARENT and node.named_children:
        node = node.named_children[0]
    return node


def line_of(node: Node) -> int:
    return node.start_point.row + 1


def site_of(node: Node) -> str:
    return f"{node.start_point.row + 1}:{node.start_point.column}"


def env_read(name: str) -> Expr:
    """`process.env.<name>` as an `if` test reads it: a sample environment file's value first,
    else unset (""); `NODE_ENV` one of both `NODE_ENV_DEFAULTS` (`_Reader._tested`)."""
    path = ("process", "env", name)
    if name == "NODE_ENV":
        return OneOf(
            tuple(
                Fallback(Sym(path), Fallback(Opaque(), Lit(value), why), "")
                for value, why in NODE_ENV_DEFAULTS
            )
        )
    unset = Fallback(Opaque(), Lit(""), f"process.env.{name} unset")
    return Fallback(Sym(path), unset, "")
