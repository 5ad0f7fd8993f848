; Language injections for agentmd.
;
; Capture names (tree-sitter's injection conventions):
;   @injection.content   the node to parse with another language
;   @injection.language  the node whose text names that language
;
; The frontmatter is YAML: skein parses it in place (included ranges), so
; every YAML node keeps its byte offsets in the Markdown file.

((frontmatter_content) @injection.content
  (#set! injection.language "yaml"))

; Fenced code blocks, by the first word of their info string
; (```python, ~~~json).
(fenced_code_block
  (info_string
    (language) @injection.language)
  (code_content) @injection.content)
