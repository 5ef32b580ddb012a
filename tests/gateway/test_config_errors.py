"""app.config_errors: every config error in the user's words, one line each, naming its TOML path."""

from __future__ import annotations

from pathlib import Path

from test_preflight import check_config


def test_every_kind_of_config_error_is_one_line_in_the_users_words(tmp_path: Path) -> None:
    """Unknown keys (with the closest known one), wrong types, missing keys, out of range:
    each names its TOML path, none in pydantic's words."""
    config = tmp_path / "registry.toml"
    config.write_text(
        "[gatway]\n"
        '[gateway]\nport = "x"\nmax_body_bytes = 0\ntokenfile = "t"\n'
        "[defaults]\nrequest_timeout = 5\ninstances = 100\n"
        '[[plugin]]\nid = "p"\ncommand = ["x"]\nprotocol = "grpc"\neager = "maybe"\n'
    )
    done = check_config(config)
    assert done.returncode == 1 and done.stdout == ""
    assert sorted(done.stderr.splitlines()) == sorted(
        f"{config}: {line}"
        for line in [
            "gatway: unknown key (did you mean gateway?)",
            'gateway.port: expected an integer, got the string "x"',
            "gateway.max_body_bytes: must be greater than 0, got the number 0",
            "gateway.tokenfile: unknown key (did you mean token_file?)",
            "defaults.request_timeout: unknown key (did you mean request_ms?)",
            "defaults.instances: must be at most 64, got the number 100",
            "[[plugin]] #1 (p): version: required, and not given",
            '[[plugin]] #1 (p): protocol: expected "gpp/3" or "jsonrpc-2.0", got the string "grpc"',
            '[[plugin]] #1 (p): eager: expected true or false, got the string "maybe"',
        ]
    )
    for pydantic_words in ("Input should", "Field required", "Extra inputs", "valid integer"):
        assert pydantic_words not in done.stderr
