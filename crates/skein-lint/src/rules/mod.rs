//! Rules by category. Each module lists one file per rule.

pub mod agents;
pub mod bailey;
pub mod commands;
pub mod flow;
pub mod hooks;
pub mod loom;
pub mod loopmaster;
pub mod marketplaces;
pub mod mcp;
pub mod memory;
pub mod opencode;
pub mod perm;
pub mod plugins;
pub mod refs;
pub mod sec;
pub mod settings;
pub mod skills;
pub mod yaml;

/// The lines of `text` from byte `from` (a Markdown body) that are outside
/// fenced code blocks, each with the byte offset where it starts in
/// `text`, line break included. A fence is a line of ```` ``` ```` or
/// `~~~` indented at most three spaces; it opens or closes a block
/// (CommonMark, "Fenced code blocks", read loosely: the closing fence is
/// not matched to the opening one's length).
pub(crate) fn unfenced_lines(text: &str, from: usize) -> impl Iterator<Item = (usize, &str)> {
    let fence = |line: &str| {
        let t = line.trim_start_matches(' ');
        line.len() - t.len() <= 3 && (t.starts_with("```") || t.starts_with("~~~"))
    };
    let mut in_fence = false;
    let mut at = from;
    text.get(from..)
        .unwrap_or("")
        .split_inclusive('\n')
        .filter_map(move |line| {
            let start = at;
            at += line.len();
            if fence(line) {
                in_fence = !in_fence;
                return None;
            }
            (!in_fence).then_some((start, line))
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_outside_fences() {
        let text = "a\n```sh\nb\n```\n   ~~~\nc\n~~~\n    ```\nd\n";
        let got: Vec<(usize, &str)> = super::unfenced_lines(text, 0).collect();
        assert_eq!(got, [(0, "a\n"), (27, "    ```\n"), (35, "d\n")]);
    }
}
