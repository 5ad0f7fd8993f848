; Syntax highlighting for agentmd (skein's Markdown grammar).
;
; Capture names follow the nvim-treesitter conventions:
;   @markup.heading.1 … @markup.heading.6  heading text, by level
;   @markup.raw          code spans
;   @markup.raw.block    fenced and indented code blocks
;   @markup.italic       emphasis
;   @markup.strong       strong emphasis
;   @markup.link         link and image text
;   @markup.link.url     link, image, definition and autolink destinations
;   @markup.link.label   reference labels (`[label]`)
;   @markup.list         list markers
;   @markup.quote        block quotes
;   @comment             HTML comments
;   @string              link titles
;   @label               the language of a fenced code block
;   @punctuation.special heading markers and underlines, thematic breaks,
;                        frontmatter delimiters, fence delimiters
;   @punctuation.delimiter emphasis and code span delimiters, table
;                        delimiter rows

(atx_heading (atx_h1_marker) (heading_content) @markup.heading.1)
(atx_heading (atx_h2_marker) (heading_content) @markup.heading.2)
(atx_heading (atx_h3_marker) (heading_content) @markup.heading.3)
(atx_heading (atx_h4_marker) (heading_content) @markup.heading.4)
(atx_heading (atx_h5_marker) (heading_content) @markup.heading.5)
(atx_heading (atx_h6_marker) (heading_content) @markup.heading.6)
(setext_heading (heading_content) @markup.heading.1 (setext_h1_underline))
(setext_heading (heading_content) @markup.heading.2 (setext_h2_underline))

[
  (atx_h1_marker)
  (atx_h2_marker)
  (atx_h3_marker)
  (atx_h4_marker)
  (atx_h5_marker)
  (atx_h6_marker)
  (setext_h1_underline)
  (setext_h2_underline)
  (thematic_break)
  (frontmatter_delimiter)
  (fenced_code_block_delimiter)
] @punctuation.special

(code_span) @markup.raw
[
  (fenced_code_block)
  (indented_code_block)
] @markup.raw.block
(info_string (language) @label)

(emphasis) @markup.italic
(strong_emphasis) @markup.strong
[
  (emphasis_delimiter)
  (code_span_delimiter)
  (table_delimiter_row)
] @punctuation.delimiter

(link_text) @markup.link
(link_destination) @markup.link.url
(link_label) @markup.link.label
(link_title) @string

(list_marker) @markup.list
(block_quote) @markup.quote
(html_comment) @comment
