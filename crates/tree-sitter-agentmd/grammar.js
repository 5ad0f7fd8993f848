/**
 * @file agentmd: Markdown of AI-agent artifacts (SKILL.md, LOOP.md,
 * agents/*.md, commands/*.md) for skein: YAML frontmatter, CommonMark
 * blocks, GFM pipe tables and the inline constructs skein reads, in one
 * tree with exact byte spans.
 *
 * Line structure and every token come from the external scanner
 * (src/scanner.c): Markdown has no syntax errors, so the scanner decides
 * what each run of bytes is and this grammar only nests the tokens. The
 * scanner opens a construct only when it has seen that it closes (a code
 * span's closing backticks, a link's `](dest)`); every construct it opens,
 * it also closes, so any input parses without ERROR nodes. The one
 * deliberate error is an unterminated frontmatter: the closing delimiter is
 * then MISSING and the rest of the file parses as the body.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

module.exports = grammar({
  name: 'agentmd',

  // Line breaks, container prefixes (`> `, list indentation) and zero-width
  // scanner bookkeeping may occur between any two tokens.
  extras: $ => [$._newline, $._line_prefix, $._decision],

  externals: $ => [
    // Keep this order in sync with `enum TokenType` in src/scanner.c.
    $._newline,
    $._line_prefix,
    $._decision,
    $._block_close,
    $.frontmatter_delimiter,
    $.frontmatter_content,
    $._block_quote_start,
    $.list_marker,
    $.atx_h1_marker,
    $.atx_h2_marker,
    $.atx_h3_marker,
    $.atx_h4_marker,
    $.atx_h5_marker,
    $.atx_h6_marker,
    $._atx_closing,
    $.setext_h1_underline,
    $.setext_h2_underline,
    $.thematic_break,
    $.fenced_code_block_delimiter,
    $.language,
    $._info_rest,
    $.code_content,
    $._indented_code,
    $._html_comment_block,
    $.html_comment,
    $._table_start,
    $._pipe,
    $._row_end,
    $._empty_cell,
    $.table_delimiter_row,
    $._text,
    $.code_span_delimiter,
    $._code_span_text,
    $._emphasis_open,
    $._emphasis_close,
    $._strong_open,
    $._strong_close,
    $._link_open,
    $._image_open,
    $._link_text_close,
    $._link_abort,
    $._dest_open,
    $._angle_open,
    $._angle_close,
    $.link_destination,
    $.link_title,
    $._dest_close,
    $.link_label,
    $._refdef_colon,
    $._autolink_open,
    $._autolink_close,
    $._error_sentinel,
  ],

  rules: {
    document: $ => seq(optional($.frontmatter), repeat($._block)),

    // `---` line, YAML, `---` or `...` line; only at the start of the file
    // (after an optional BOM).
    frontmatter: $ => seq(
      $.frontmatter_delimiter,
      optional($.frontmatter_content),
      $.frontmatter_delimiter,
    ),

    _block: $ => choice(
      $.paragraph,
      $.setext_heading,
      $.atx_heading,
      $.thematic_break,
      $.fenced_code_block,
      $.indented_code_block,
      $.block_quote,
      $.list,
      $.table,
      $.link_reference_definition,
      alias($._html_comment_block, $.html_comment),
    ),

    paragraph: $ => seq($._inlines, $._block_close),

    setext_heading: $ => seq(
      $.heading_content,
      choice($.setext_h1_underline, $.setext_h2_underline),
    ),

    atx_heading: $ => seq(
      choice(
        $.atx_h1_marker,
        $.atx_h2_marker,
        $.atx_h3_marker,
        $.atx_h4_marker,
        $.atx_h5_marker,
        $.atx_h6_marker,
      ),
      optional($.heading_content),
      optional($._atx_closing),
      $._block_close,
    ),

    heading_content: $ => $._inlines,

    fenced_code_block: $ => seq(
      $.fenced_code_block_delimiter,
      optional($.info_string),
      optional($.code_content),
      choice($.fenced_code_block_delimiter, $._block_close),
    ),

    info_string: $ => seq($.language, optional($._info_rest)),

    indented_code_block: $ => $._indented_code,

    block_quote: $ => seq($._block_quote_start, repeat($._block), $._block_close),

    list: $ => prec.right(repeat1($.list_item)),

    list_item: $ => seq($.list_marker, repeat($._block), $._block_close),

    table: $ => seq(
      $._table_start,
      $.table_header_row,
      $.table_delimiter_row,
      repeat($.table_row),
      $._block_close,
    ),

    table_header_row: $ => $._table_row,

    table_row: $ => $._table_row,

    _table_row: $ => seq(
      choice(
        seq(
          optional($._pipe),
          $.table_cell,
          repeat(seq($._pipe, $.table_cell)),
          optional($._pipe),
        ),
        $._pipe,
      ),
      $._row_end,
    ),

    table_cell: $ => choice($._inlines, $._empty_cell),

    link_reference_definition: $ => seq(
      field('label', $.link_label),
      $._refdef_colon,
      optional($._destination),
      optional(field('title', $.link_title)),
      $._block_close,
    ),

    // Inline content.

    _inlines: $ => repeat1($._inline),

    _inline: $ => choice(
      $._text,
      $.code_span,
      $.emphasis,
      $.strong_emphasis,
      $.link,
      $.image,
      $.autolink,
      $.html_comment,
    ),

    code_span: $ => seq(
      $.code_span_delimiter,
      repeat($._code_span_text),
      $.code_span_delimiter,
    ),

    emphasis: $ => seq(
      alias($._emphasis_open, $.emphasis_delimiter),
      repeat($._inline),
      alias($._emphasis_close, $.emphasis_delimiter),
    ),

    strong_emphasis: $ => seq(
      alias($._strong_open, $.emphasis_delimiter),
      repeat($._inline),
      alias($._strong_close, $.emphasis_delimiter),
    ),

    link: $ => seq($._link_open, optional(field('text', $.link_text)), $._link_tail),

    image: $ => seq($._image_open, optional(field('text', $.link_text)), $._link_tail),

    link_text: $ => $._inlines,

    _link_tail: $ => choice(
      seq(
        $._link_text_close,
        choice(
          seq(
            $._dest_open,
            optional($._destination),
            optional(field('title', $.link_title)),
            $._dest_close,
          ),
          field('label', $.link_label),
          $._link_abort,
        ),
      ),
      $._link_abort,
    ),

    _destination: $ => choice(
      seq($._angle_open, optional(field('target', $.link_destination)), $._angle_close),
      field('target', $.link_destination),
    ),

    autolink: $ => seq(
      $._autolink_open,
      optional(field('target', $.link_destination)),
      $._autolink_close,
    ),
  },
});
