/*
 * C-level libFuzzer harness for the agentmd tree-sitter grammar: the
 * generated parser (crates/tree-sitter-agentmd/src/parser.c), skein's
 * hand-written external scanner (src/scanner.c) and the tree-sitter C
 * runtime, all compiled with -fsanitize=fuzzer,address,undefined by
 * fuzz/c/run.sh. The Rust fuzz targets (fuzz/fuzz_targets/) reach the same C
 * code, but without sanitizers a memory error there shows only if it happens
 * to segfault; here AddressSanitizer, UndefinedBehaviorSanitizer and
 * LeakSanitizer report it at the first bad access.
 *
 * For every input:
 *   1. parse it (ts_parser_parse_string);
 *   2. walk the whole tree with a cursor: every node's byte range lies
 *      within the input, start <= end, within its parent's range and after
 *      its previous sibling; its points are ordered and its rows exist;
 *      render the tree with ts_node_string (then free it);
 *   3. apply one edit derived from a hash of the input (delete a span,
 *      insert a few bytes taken from the input or from a list of Markdown
 *      tokens), ts_tree_edit the old tree and reparse incrementally with it
 *      (the scanner deserializes states saved in the old tree), walk the new
 *      tree the same way and check ts_tree_get_changed_ranges;
 *   4. free everything (LeakSanitizer checks that nothing leaks).
 *
 * With AGENTMD_FUZZ_STRICT=1 in the environment it also checks properties
 * that are about correctness rather than memory safety: no ERROR or MISSING
 * node (the grammar promises every input parses without them, except an
 * unterminated frontmatter, so texts starting with `---` are skipped), the
 * incremental reparse gives the same tree as a fresh parse of the edited
 * text, and parsing through a TSInput that hands the text out in small
 * chunks gives the same tree as parsing the whole string.
 *
 * Every failed check prints what failed and calls abort(), which libFuzzer
 * reports as a crash (with the input saved as an artifact).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_agentmd(void);

static bool strict = false;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *s = getenv("AGENTMD_FUZZ_STRICT");
  strict = s != NULL && s[0] != '\0' && strcmp(s, "0") != 0;
  return 0;
}

static void fail(const char *what, TSNode node, uint32_t len) {
  fprintf(stderr,
          "agentmd_fuzzer: %s: node `%s` bytes [%u, %u) points (%u,%u)-(%u,%u), "
          "text length %u\n",
          what, ts_node_is_null(node) ? "(null)" : ts_node_type(node),
          ts_node_is_null(node) ? 0 : ts_node_start_byte(node),
          ts_node_is_null(node) ? 0 : ts_node_end_byte(node),
          ts_node_is_null(node) ? 0 : ts_node_start_point(node).row,
          ts_node_is_null(node) ? 0 : ts_node_start_point(node).column,
          ts_node_is_null(node) ? 0 : ts_node_end_point(node).row,
          ts_node_is_null(node) ? 0 : ts_node_end_point(node).column, len);
  abort();
}

static void fail_msg(const char *what) {
  fprintf(stderr, "agentmd_fuzzer: %s\n", what);
  abort();
}

static bool point_le(TSPoint a, TSPoint b) {
  return a.row < b.row || (a.row == b.row && a.column <= b.column);
}

/* The point (row, byte column) of byte offset `off` in `text`. */
static TSPoint point_at(const char *text, uint32_t off) {
  TSPoint p = {0, 0};
  for (uint32_t i = 0; i < off; i++) {
    if (text[i] == '\n') {
      p.row++;
      p.column = 0;
    } else {
      p.column++;
    }
  }
  return p;
}

/*
 * The grammar's one deliberate ERROR: an unterminated frontmatter (see
 * crates/tree-sitter-agentmd/tests/spans.rs). Like tests/robustness.rs, the
 * strict check skips every text that starts with `---` (after a BOM).
 */
static bool deliberate_error(const char *text, uint32_t len) {
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
    text += 3;
    len -= 3;
  }
  return len >= 3 && memcmp(text, "---", 3) == 0;
}

typedef struct {
  uint32_t start, end;     /* the node's byte range */
  uint32_t prev_end;       /* end of the previous child seen under it */
} Range;

/*
 * Walks the whole tree in preorder and checks every node's range. Returns
 * the number of nodes (so the walk cannot be optimised away).
 */
static size_t check_tree(TSTree *tree, const char *text, uint32_t len) {
  bool no_errors = strict && !deliberate_error(text, len);
  uint32_t rows = 0;
  for (uint32_t i = 0; i < len; i++) rows += text[i] == '\n';
  uint32_t symbols = ts_language_symbol_count(ts_tree_language(tree));

  TSNode root = ts_tree_root_node(tree);
  if (ts_node_is_null(root)) fail_msg("null root node");

  size_t cap = 64, depth = 0, count = 0;
  Range *stack = malloc(cap * sizeof(Range));
  if (stack == NULL) fail_msg("out of memory");

  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    uint32_t start = ts_node_start_byte(node);
    uint32_t end = ts_node_end_byte(node);
    TSPoint sp = ts_node_start_point(node);
    TSPoint ep = ts_node_end_point(node);
    count++;

    if (start > end) fail("start byte after end byte", node, len);
    if (end > len) fail("node ends past the end of the text", node, len);
    if (!point_le(sp, ep)) fail("start point after end point", node, len);
    if (ep.row > rows) fail("node ends on a row the text does not have", node, len);
    if (!ts_node_is_error(node) && ts_node_symbol(node) >= symbols)
      fail("symbol out of range", node, len);
    if (ts_node_type(node) == NULL) fail("node without a type name", node, len);
    if (depth > 0) {
      Range *parent = &stack[depth - 1];
      if (start < parent->start || end > parent->end)
        fail("node outside its parent's range", node, len);
      if (start < parent->prev_end) fail("node overlaps its previous sibling", node, len);
      parent->prev_end = end;
    }
    if (no_errors && (ts_node_is_error(node) || ts_node_is_missing(node)))
      fail("ERROR or MISSING node (AGENTMD_FUZZ_STRICT)", node, len);

    if (ts_tree_cursor_goto_first_child(&cursor)) {
      if (depth == cap) {
        cap *= 2;
        Range *grown = realloc(stack, cap * sizeof(Range));
        if (grown == NULL) fail_msg("out of memory");
        stack = grown;
      }
      stack[depth++] = (Range){start, end, start};
      continue;
    }
    /* No child: the next sibling of this node or of its nearest ancestor. */
    for (;;) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) break;
      if (!ts_tree_cursor_goto_parent(&cursor)) goto done;
      if (depth == 0) fail_msg("cursor depth and walk depth disagree");
      depth--;
    }
  }
done:
  if (depth != 0) fail_msg("walk ended below the root");
  ts_tree_cursor_delete(&cursor);
  free(stack);

  char *sexp = ts_node_string(root);
  if (sexp == NULL) fail_msg("ts_node_string returned NULL");
  free(sexp);
  return count;
}

/* Tokens the edit may insert: the ones whose boundaries the scanner decides. */
static const char *const TOKENS[] = {
    "---\n", "```", "~~~", "|", "[", "](", "]", ")", "<!--", "-->", "#", "**", "*",
    "_",     "`",   "> ",  "- ", "1. ", "...", "\r\n", "\n", "\n\n", "\xEF\xBB\xBF",
    "\\",    "<",   ">",   "    ", "\t", "|---|", "![",
};
#define N_TOKENS (sizeof(TOKENS) / sizeof(TOKENS[0]))

static uint64_t fnv1a(const uint8_t *data, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; i++) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

typedef struct {
  const char *text;
  uint32_t len;
  uint32_t chunk;
} Chunked;

/* A TSInput read callback that hands the text out `chunk` bytes at a time. */
static const char *read_chunked(void *payload, uint32_t byte, TSPoint point,
                                uint32_t *bytes_read) {
  (void)point;
  const Chunked *c = payload;
  if (byte >= c->len) {
    *bytes_read = 0;
    return "";
  }
  uint32_t n = c->len - byte;
  *bytes_read = n < c->chunk ? n : c->chunk;
  return c->text + byte;
}

static void expect_same_tree(TSTree *a, TSTree *b, const char *what) {
  char *sa = ts_node_string(ts_tree_root_node(a));
  char *sb = ts_node_string(ts_tree_root_node(b));
  if (sa == NULL || sb == NULL) fail_msg("ts_node_string returned NULL");
  bool same = strcmp(sa, sb) == 0 &&
              ts_node_end_byte(ts_tree_root_node(a)) == ts_node_end_byte(ts_tree_root_node(b));
  if (!same) {
    fprintf(stderr, "agentmd_fuzzer: %s (AGENTMD_FUZZ_STRICT)\n  one:   %s\n  other: %s\n", what,
            sa, sb);
    abort();
  }
  free(sa);
  free(sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > UINT32_MAX / 2) return 0;
  const char *text = (const char *)data;
  uint32_t len = (uint32_t)size;

  TSParser *parser = ts_parser_new();
  if (parser == NULL) fail_msg("ts_parser_new returned NULL");
  if (!ts_parser_set_language(parser, tree_sitter_agentmd()))
    fail_msg("ts_parser_set_language refused the agentmd language (ABI version?)");

  TSTree *tree = ts_parser_parse_string(parser, NULL, text, len);
  if (tree == NULL) fail_msg("ts_parser_parse_string returned NULL");
  check_tree(tree, text, len);

  uint64_t h = fnv1a(data, size);

  if (strict) {
    /* At least 4 bytes: the runtime refetches a chunk that ends inside a
     * UTF-8 character once, so a chunk must hold any whole character. */
    Chunked c = {text, len, 4 + (uint32_t)(h % 13)};
    TSInput input = {&c, read_chunked, TSInputEncodingUTF8, NULL};
    TSTree *chunked = ts_parser_parse(parser, NULL, input);
    if (chunked == NULL) fail_msg("ts_parser_parse returned NULL");
    expect_same_tree(tree, chunked, "parsing in chunks gave another tree");
    ts_tree_delete(chunked);
  }

  /* One edit: replace text[start, old_end) by `ins_len` inserted bytes. */
  uint32_t start = (uint32_t)(h % ((uint64_t)len + 1));
  uint32_t room = len - start;
  uint32_t max_del = room < 64 ? room : 64;
  uint32_t old_end = start + (uint32_t)((h >> 20) % ((uint64_t)max_del + 1));
  const char *ins;
  uint32_t ins_len;
  if (((h >> 40) & 1) == 0 || len == 0) {
    ins = TOKENS[(h >> 41) % N_TOKENS];
    ins_len = (uint32_t)strlen(ins);
  } else {
    uint32_t from = (uint32_t)((h >> 41) % len);
    uint32_t avail = len - from;
    ins = text + from;
    ins_len = (uint32_t)((h >> 56) % 17);
    if (ins_len > avail) ins_len = avail;
  }
  uint32_t new_len = len - (old_end - start) + ins_len;
  char *edited = malloc(new_len ? new_len : 1);
  if (edited == NULL) fail_msg("out of memory");
  if (start > 0) memcpy(edited, text, start);
  if (ins_len > 0) memcpy(edited + start, ins, ins_len);
  if (len > old_end) memcpy(edited + start + ins_len, text + old_end, len - old_end);

  TSInputEdit edit = {
      .start_byte = start,
      .old_end_byte = old_end,
      .new_end_byte = start + ins_len,
      .start_point = point_at(text, start),
      .old_end_point = point_at(text, old_end),
      .new_end_point = point_at(edited, start + ins_len),
  };
  ts_tree_edit(tree, &edit);
  TSTree *reparsed = ts_parser_parse_string(parser, tree, edited, new_len);
  if (reparsed == NULL) fail_msg("incremental ts_parser_parse_string returned NULL");
  check_tree(reparsed, edited, new_len);

  uint32_t n_ranges = 0;
  TSRange *ranges = ts_tree_get_changed_ranges(tree, reparsed, &n_ranges);
  for (uint32_t i = 0; i < n_ranges; i++) {
    if (ranges[i].start_byte > ranges[i].end_byte || ranges[i].end_byte > new_len) {
      fprintf(stderr, "agentmd_fuzzer: changed range [%u, %u) outside the edited text (%u)\n",
              ranges[i].start_byte, ranges[i].end_byte, new_len);
      abort();
    }
  }
  free(ranges);

  if (strict) {
    TSTree *fresh = ts_parser_parse_string(parser, NULL, edited, new_len);
    if (fresh == NULL) fail_msg("ts_parser_parse_string returned NULL");
    expect_same_tree(reparsed, fresh, "incremental reparse differs from a fresh parse");
    ts_tree_delete(fresh);
  }

  ts_tree_delete(reparsed);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  free(edited);
  return 0;
}
