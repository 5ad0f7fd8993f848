//! Span tests: for at least one error per format, the `line:col` of the
//! primary label, checked exactly (DESIGN.md §2: the primary span points at
//! the smallest node that is wrong, including inside block scalars and
//! frontmatter with CRLF line endings).

mod common;

use skein::{InputFile, Options, check_files};

/// Checks one file and returns `line:col: CODE message` of each diagnostic.
fn check_one(path: &str, text: &str) -> Vec<String> {
    let report = check_files(vec![InputFile::new(path, text)], &Options::default());
    report
        .diagnostics()
        .iter()
        .map(|d| {
            let (_, line, col) = common::position(&report, d);
            format!("{line}:{col}: {} {}", d.rule.code, d.message)
        })
        .collect()
}

#[track_caller]
fn assert_diags(path: &str, text: &str, expected: &[&str]) {
    let got = check_one(path, text);
    assert_eq!(got, expected, "{path}");
}

#[test]
fn skilldrop_loop_wrong_type() {
    assert_diags(
        "packs/core/loops/review/loop.json",
        "{\n  \"name\": \"review\",\n  \"description\": \"Reviews.\",\n  \"entrypoint\": \"LOOP.md\",\n  \"kind\": \"loop\",\n  \"cap\": \"three\",\n  \"stages\": [{\"id\": \"draft\", \"type\": \"generate\", \"intent\": \"Draft it.\", \"skills\": [\"x\"]}]\n}\n",
        // The loop still enters the model (read leniently), so its other
        // faults in this one-file repository are found too.
        &[
            "4:17: REF006 entrypoint `LOOP.md` does not exist relative to `packs/core/loops/review/`",
            "6:10: SCH001 `/cap` is a string `three`, expected integer",
            "7:84: REF002 unknown skill `x`",
        ],
    );
}

#[test]
fn skill_frontmatter_crlf() {
    assert_diags(
        "skills/Review/SKILL.md",
        "---\r\nname: Bad_Name\r\ndescription: Reviews a diff.\r\n---\r\n# Review\r\n",
        &[
            "2:7: REF005 skill name `Bad_Name` does not match its folder `Review`",
            "2:7: SKILL002 skill name `Bad_Name` is not a valid name: it has upper-case letters; it contains `_`",
        ],
    );
}

#[test]
fn skill_description_in_block_scalar() {
    let long = "word ".repeat(230);
    let text = format!("---\nname: review\ndescription: >-\n  {long}\n  more\n---\n");
    assert_diags(
        "skills/review/SKILL.md",
        &text,
        &[
            "3:14: SKILL004 the skill's description is 1155 characters long, more than the maximum of 1024",
        ],
    );
}

#[test]
fn skill_missing_name_points_at_frontmatter() {
    assert_diags(
        "skills/review/SKILL.md",
        "---\ndescription: Reviews.\n---\n",
        &["1:1: SKILL001 the skill has no `name` in its frontmatter"],
    );
}

#[test]
fn skill_without_frontmatter_and_unterminated() {
    assert_diags(
        "a/SKILL.md",
        "# Title\n",
        &["1:1: SCH002 SKILL.md has no YAML frontmatter"],
    );
    assert_diags(
        "a/SKILL.md",
        "---\nname: a\n# Title\n",
        &["1:1: SYN003 frontmatter opened here is never closed"],
    );
}

#[test]
fn opencode_contract_enum() {
    assert_diags(
        "contract.json",
        "{\n  \"governance\": {\n    \"mode\": \"yolo\"\n  },\n  \"requirements\": {\"goal\": \"g\"}\n}\n",
        &["3:13: SCH001 `/governance/mode` is `yolo`, not one of the allowed values"],
    );
}

#[test]
fn bailey_version() {
    assert_diags(
        "assistant.json",
        "{\"format_version\": \"1.0\", \"name\": \"shop\", \"title\": \"Shop\", \"instructions\": \"skills/shop/SKILL.md\"}",
        &[
            "1:20: SCH001 `/format_version` is `1.0`, expected `0.1`",
            "1:76: REF002 no skill at `skills/shop/SKILL.md`",
        ],
    );
}

#[test]
fn loopmaster_unknown_top_level_key_and_version() {
    let got = check_one(
        "loops/nightly.loop.yaml",
        "spec_version: 0.1\nid: nightly\nbogus: 1\n",
    );
    assert!(
        got.contains(
            &"1:15: SCH001 `/spec_version` is a number `0.1`, expected a string `\"0.1\"`"
                .to_string()
        ),
        "{got:?}"
    );
    assert!(
        got.iter()
            .any(|g| g.starts_with("3:1: SCH001 unknown property `bogus`")),
        "{got:?}"
    );
}

#[test]
fn yaml_duplicate_key_and_syntax() {
    assert_diags(
        "agents/triage.agent.yaml",
        "spec_version: 1\nname: triage\nname: again\n",
        &[
            "1:1: SCH001 missing required property `description` in the top level",
            "1:1: SCH001 missing required property `instructions` in the top level",
            "1:1: SCH001 missing required property `output` in the top level",
            "3:1: SYN002 duplicate key `name`",
        ],
    );
}

#[test]
fn json_missing_brace() {
    let got = check_one("plugins/x/.claude-plugin/plugin.json", "{\"name\": \"x\"");
    assert_eq!(got[0], "1:13: SYN001 syntax error: missing `}`");
}

#[test]
fn mcp_server_missing_command() {
    let got = check_one(
        ".mcp.json",
        "{\n  \"mcpServers\": {\n    \"db\": {\"args\": []}\n  }\n}\n",
    );
    assert_eq!(
        got,
        ["3:5: MCP004 MCP server `db` has neither `command` nor `url`"]
    );
}

#[test]
fn marketplace_plugin_without_source() {
    let got = check_one(
        ".claude-plugin/marketplace.json",
        "{\n  \"name\": \"m\",\n  \"owner\": {\"name\": \"o\"},\n  \"plugins\": [\n    {\"name\": \"p\"}\n  ]\n}\n",
    );
    assert_eq!(got, ["5:5: MKT005 marketplace entry `p` has no `source`"]);
}

#[test]
fn hooks_wrong_shape() {
    let got = check_one("hooks/hooks.json", "{\"hooks\": []}");
    assert_eq!(got, ["1:11: SCH001 `/hooks` is an array, expected object"]);
}

#[test]
fn skilldrop_terminals_pack_catalogue() {
    let got = check_one(
        "contracts/terminals.json",
        "{\"classes\": {\"pass\": \"ok\"}, \"verdicts\": {\"READY\": {}}}",
    );
    assert_eq!(
        got,
        ["1:42: SCH001 missing required property `class` in `/verdicts/READY`"]
    );
    let got = check_one(
        "packs/core/pack.json",
        "{\"description\": \"Core.\", \"requires\": \"base\"}",
    );
    assert_eq!(
        got,
        ["1:38: SCH001 `/requires` is a string `base`, expected array"]
    );
    let got = check_one("catalogue.json", "{\"version\": \"1.0.0\", \"packs\": []}");
    assert_eq!(
        got,
        [
            "1:1: SCH001 missing required property `outcomes` in the top level",
            "1:31: SCH001 `/packs` has 0 items, fewer than the minimum of 1",
        ]
    );
}

#[test]
fn agent_plugins_manifest() {
    let got = check_one(
        "plugins/x/plugin.json",
        "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"version\": \"1.0.0\"\n}\n",
    );
    assert_eq!(
        got,
        ["1:1: SCH001 missing required property `name` in the top level"]
    );
}
