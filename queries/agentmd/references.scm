; The extraction queries skein's engine runs on every Markdown artifact.
;
; Captures (the engine reads them by name):
;   @link.target  the destination of an inline link or image, of a link
;                 reference definition (`[label]: dest`) and of an autolink
;                 (`<https://…>`): a `link_destination` node, without `<>`
;                 and without the title
;   @link.label   the label of a reference link (`[text][label]`,
;                 `[label][]`) or of a definition, brackets included
;   @code         a code span, backtick delimiters included (the code is the
;                 text between its two `code_span_delimiter` children)
;   @strong       strong emphasis (`**…**`, `__…__`), delimiters included
;   @heading      the text of an ATX or setext heading (`heading_content`)
;   @comment      an HTML comment, `<!--` and `-->` included (suppressions
;                 such as `<!-- skein: ignore[CODE] -->` live there)
;   @table.cell   a cell of a table's header or body row, trimmed
;
; Links inside code spans and fenced code are not links: the grammar never
; produces `link` nodes there. A shortcut reference (`[label]` alone) is
; text: match its text against the definitions if needed.

(link
  target: (link_destination) @link.target)
(image
  target: (link_destination) @link.target)
(link_reference_definition
  target: (link_destination) @link.target)
(autolink
  target: (link_destination) @link.target)

(link
  label: (link_label) @link.label)
(image
  label: (link_label) @link.label)
(link_reference_definition
  label: (link_label) @link.label)

(code_span) @code

(strong_emphasis) @strong

(heading_content) @heading

(html_comment) @comment

(table_cell) @table.cell
