"""End-to-end tests of `skein server`, driven over stdio by pytest-lsp.

The server is the built binary (`SKEIN_BIN`, default `target/debug/skein`);
the project is `corpus/examples/demo-repo`. Edits are sent as buffer
contents only: nothing is written to disk.
"""

import asyncio
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = pathlib.Path(__file__).resolve().parents[2]
SKEIN = os.environ.get("SKEIN_BIN", str(ROOT / "target" / "debug" / "skein"))
DEMO = (ROOT / "corpus" / "examples" / "demo-repo").resolve()
REVIEW = DEMO / "packs/core/loops/review/loop.json"
TRIAGE = DEMO / "packs/core/loops/triage/loop.json"
TRIAGE_SKILL = DEMO / "packs/core/skills/triage-issue/SKILL.md"
AGENT = DEMO / "agents/triage.agent.yaml"


def uri(path: pathlib.Path) -> str:
    return path.as_uri()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[SKEIN, "server"]))
async def client(lsp_client: LanguageClient):
    # The VS Code capabilities allow dynamic registration: the server asks to
    # watch files; accept.
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams):
        assert params.registrations[0].method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        return None

    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=uri(DEMO),
        workspace_folders=[types.WorkspaceFolder(uri=uri(DEMO), name="demo-repo")],
        initialization_options={"debounceMs": 0},
    )
    result = await lsp_client.initialize_session(params)
    assert result.server_info.name == "skein"
    yield
    # shutdown, then exit: the server must end by itself.
    await lsp_client.shutdown_session()


async def diagnostics_of(client: LanguageClient, path: pathlib.Path, check, timeout=20.0):
    """The diagnostics published for `path` once `check` accepts them."""

    async def wait():
        while True:
            got = client.diagnostics.get(uri(path))
            if got is not None and check(got):
                return got
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    return await asyncio.wait_for(wait(), timeout)


def codes(diagnostics):
    return sorted(d.code for d in diagnostics)


def open_doc(client: LanguageClient, path: pathlib.Path, text: str, language: str):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri(path), language_id=language, version=1, text=text
            )
        )
    )


def change_doc(client: LanguageClient, path: pathlib.Path, text: str, version: int):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def test_initialize_publishes_the_diagnostics_of_a_file(client: LanguageClient):
    got = await diagnostics_of(client, TRIAGE, lambda d: len(d) > 0)
    assert codes(got) == ["FLOW001", "FLOW005", "REF001"]
    dup = next(d for d in got if d.code == "REF001")
    assert dup.message.startswith("gate id `G1` is already used in loop `review`")
    assert dup.severity == types.DiagnosticSeverity.Error
    assert dup.source == "skein"
    assert dup.range.start == types.Position(line=20, character=14)
    assert dup.code_description.href.endswith("docs/rules.md#ref001-duplicate-gate-id")
    # The first gate with that id is the related information, in the other file.
    assert [r.location.uri for r in dup.related_information] == [uri(REVIEW)]


async def test_a_duplicate_gate_id_made_in_one_loop_shows_in_the_other(client: LanguageClient):
    await diagnostics_of(client, TRIAGE, lambda d: "REF001" in codes(d))
    triage = TRIAGE.read_text()
    review = REVIEW.read_text()
    # Give triage's gate a fresh id: the duplicate is gone.
    open_doc(client, TRIAGE, triage, "json")
    change_doc(client, TRIAGE, triage.replace('"id": "G1"', '"id": "G2"'), 2)
    got = await diagnostics_of(client, TRIAGE, lambda d: "REF001" not in codes(d))
    assert codes(got) == ["FLOW001", "FLOW005"]
    # Now rename review's gate to G2: triage (not the edited file) has the duplicate.
    open_doc(client, REVIEW, review, "json")
    change_doc(client, REVIEW, review.replace('"id": "G1"', '"id": "G2"'), 2)
    got = await diagnostics_of(client, TRIAGE, lambda d: "REF001" in codes(d))
    dup = next(d for d in got if d.code == "REF001")
    assert dup.message.startswith("gate id `G2` is already used in loop `review`")
    assert client.diagnostics.get(uri(REVIEW), []) == []


async def test_a_code_action_returns_the_fix_and_a_suppression(client: LanguageClient):
    got = await diagnostics_of(client, TRIAGE_SKILL, lambda d: "REF005" in codes(d))
    ref005 = next(d for d in got if d.code == "REF005")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(TRIAGE_SKILL)),
            range=ref005.range,
            context=types.CodeActionContext(diagnostics=[ref005]),
        )
    )
    titles = [a.title for a in actions]
    assert "set `name: triage-issue` (REF005)" in titles
    fix = next(a for a in actions if a.title == "set `name: triage-issue` (REF005)")
    [edit] = fix.edit.changes[uri(TRIAGE_SKILL)]
    assert edit.new_text == "triage-issue"
    assert edit.range == types.Range(
        start=types.Position(line=1, character=6), end=types.Position(line=1, character=18)
    )
    suppress = next(a for a in actions if a.title == "suppress REF005 here with a reason")
    [edit] = suppress.edit.changes[uri(TRIAGE_SKILL)]
    assert edit.new_text == "# skein: ignore[REF005] reason: why this finding is accepted\n"
    assert edit.range.start == types.Position(line=1, character=0)


async def test_suppressing_in_yaml_inserts_a_comment_with_the_indentation(client: LanguageClient):
    got = await diagnostics_of(client, AGENT, lambda d: "SCH001" in codes(d))
    d = next(d for d in got if d.code == "SCH001")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(AGENT)),
            range=d.range,
            context=types.CodeActionContext(diagnostics=[d]),
        )
    )
    [a] = actions
    assert a.title == "suppress SCH001 here with a reason"
    [edit] = a.edit.changes[uri(AGENT)]
    line = AGENT.read_text().splitlines()[d.range.start.line]
    indent = line[: len(line) - len(line.lstrip())]
    assert edit.new_text == f"{indent}# skein: ignore[SCH001] reason: why this finding is accepted\n"
    # Applied, the finding is suppressed (and the suppression is used).
    text = AGENT.read_text().splitlines(keepends=True)
    text.insert(d.range.start.line, edit.new_text)
    open_doc(client, AGENT, "".join(text), "yaml")
    got = await diagnostics_of(client, AGENT, lambda ds: "SCH001" not in codes(ds))
    assert codes(got) == []


async def test_hover_shows_the_rule_doc_and_the_skill_description(client: LanguageClient):
    got = await diagnostics_of(client, TRIAGE, lambda d: "REF001" in codes(d))
    dup = next(d for d in got if d.code == "REF001")
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(TRIAGE)),
            position=dup.range.start,
        )
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert "**REF001 duplicate-gate-id**: a gate id used twice in the repository" in hover.contents.value
    # On a stage's skill name: the skill's description.
    line = next(i for i, l in enumerate(REVIEW.read_text().splitlines()) if '"write-tests"' in l)
    col = REVIEW.read_text().splitlines()[line].index("write-tests")
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(REVIEW)),
            position=types.Position(line=line, character=col + 2),
        )
    )
    assert hover.contents.value.startswith("skill `write-tests` (packs/core/skills/write-tests/SKILL.md)")
    # On a verdict: its class.
    line = next(i for i, l in enumerate(REVIEW.read_text().splitlines()) if '"verdicts"' in l)
    col = REVIEW.read_text().splitlines()[line].index('"REVISE"') + 2
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(REVIEW)),
            position=types.Position(line=line, character=col),
        )
    )
    assert "verdict `REVISE`: class `revise`" in hover.contents.value


async def test_definition_of_a_stage_skill_is_its_skill_md(client: LanguageClient):
    await diagnostics_of(client, TRIAGE, lambda d: len(d) > 0)
    lines = REVIEW.read_text().splitlines()
    line = next(i for i, l in enumerate(lines) if '"write-tests"' in l)
    col = lines[line].index("write-tests")
    loc = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(REVIEW)),
            position=types.Position(line=line, character=col),
        )
    )
    assert loc.uri == uri(DEMO / "packs/core/skills/write-tests/SKILL.md")
    # revise_to -> the stage it names, in the same loop.
    line = next(i for i, l in enumerate(lines) if '"revise_to"' in l)
    col = lines[line].index('"test"') + 1
    loc = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(REVIEW)),
            position=types.Position(line=line, character=col),
        )
    )
    assert loc.uri == uri(REVIEW)
    target = next(i for i, l in enumerate(lines) if '"id": "test"' in l)
    assert loc.range.start.line == target
    # A verdict -> its entry in the verdict vocabulary.
    line = next(i for i, l in enumerate(lines) if '"verdicts"' in l)
    col = lines[line].index('"REVISE"') + 2
    loc = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(REVIEW)),
            position=types.Position(line=line, character=col),
        )
    )
    assert loc.uri == uri(DEMO / "contracts/terminals.json")
    vocab = (DEMO / "contracts/terminals.json").read_text().splitlines()
    assert '"REVISE"' in vocab[loc.range.start.line]
    # And back: the references of the skill include both loops' stages.
    skill_line = next(i for i, l in enumerate(lines) if '"write-tests"' in l)
    skill_col = lines[skill_line].index("write-tests")
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=uri(REVIEW)),
            position=types.Position(line=skill_line, character=skill_col),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert {r.uri for r in refs} >= {uri(REVIEW), uri(TRIAGE)}


async def test_document_symbols_of_a_loop(client: LanguageClient):
    await diagnostics_of(client, TRIAGE, lambda d: len(d) > 0)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri(REVIEW)))
    )
    [loop] = symbols
    assert loop.name == "review"
    stages = [s.name for s in loop.children]
    assert stages == ["summarize", "test", "judge"]
    judge = loop.children[2]
    assert [g.name for g in judge.children] == ["G1"]
