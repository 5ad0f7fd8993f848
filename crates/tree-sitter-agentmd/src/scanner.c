/*
 * External scanner of the agentmd grammar: every token of the language.
 *
 * Markdown has no syntax errors, so this scanner is the tokenizer and the
 * decider: it keeps the stack of open containers (block quotes, list items),
 * the open leaf block (paragraph, heading, fence, table, ...) and the stack
 * of open inline constructs (emphasis, code span, link, ...), and emits one
 * token at a time. grammar.js only nests the tokens.
 *
 * Invariants that keep every input parseable without ERROR nodes:
 *   - a construct is opened only after a forward look has seen its end (a
 *     code span's closing backticks, a link's `](dest)`, a table's
 *     delimiter row, a frontmatter's closing line);
 *   - whatever is open when its leaf block ends is closed by a zero-width
 *     token, so the grammar always sees balanced constructs;
 *   - every lookahead is bounded: inline lookaheads spend a budget that
 *     grows with the bytes consumed (linear time on hostile input), blank
 *     line lookahead is capped, and "no `-->` until the end of the file" is
 *     remembered.
 *
 * Zero-width tokens always change the serialized state (tree-sitter ignores
 * a zero-width token that does not), so the scanner cannot loop.
 *
 * When a decision needs to look further than the token it produces, the
 * scanner stores the decision in its state and emits the zero-width extra
 * `_decision`; the next call acts on it. Line ends work that way: the
 * closes a line end implies are emitted before its line break, so a block's
 * span ends at its last byte, not after the newline.
 */

#include "tree_sitter/alloc.h"
#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum TokenType {
  NEWLINE,
  LINE_PREFIX,
  DECISION,
  BLOCK_CLOSE,
  FM_DELIM,
  FM_CONTENT,
  BQ_START,
  LIST_MARKER,
  ATX1,
  ATX2,
  ATX3,
  ATX4,
  ATX5,
  ATX6,
  ATX_CLOSING,
  SETEXT1,
  SETEXT2,
  THEMATIC_BREAK,
  FENCE_DELIM,
  LANGUAGE,
  INFO_REST,
  CODE_CONTENT,
  INDENTED_CODE,
  HTML_COMMENT_BLOCK,
  HTML_COMMENT,
  TABLE_START,
  PIPE,
  ROW_END,
  EMPTY_CELL,
  TABLE_DELIM_ROW,
  TEXT,
  CODE_DELIM,
  CODE_TEXT,
  EM_OPEN,
  EM_CLOSE,
  STRONG_OPEN,
  STRONG_CLOSE,
  LINK_OPEN,
  IMAGE_OPEN,
  LINK_TEXT_CLOSE,
  LINK_ABORT,
  DEST_OPEN,
  ANGLE_OPEN,
  ANGLE_CLOSE,
  LINK_DEST,
  LINK_TITLE,
  DEST_CLOSE,
  LINK_LABEL,
  REFDEF_COLON,
  AUTOLINK_OPEN,
  AUTOLINK_CLOSE,
  ERROR_SENTINEL,
};

#define MAX_CONTAINERS 32
#define MAX_FRAMES 16
/* Longest single inline lookahead, in characters. */
#define LOOKAHEAD_WINDOW 16384
/* Inline lookahead budget, in units of 16 characters. */
#define BUDGET_INIT 2048
#define BUDGET_MAX 8192
/* Blank lines looked past to decide whether a list item goes on. */
#define BLANK_LOOKAHEAD 32
#define MAX_NESTING 32

/* Containers. */
enum { C_QUOTE = 1, C_ITEM = 2 };

/* Inline frames. */
enum { F_EMPH = 1, F_STRONG, F_CODE, F_LINK, F_IMAGE, F_AUTOLINK };

/* Phases of a link or image frame (Frame.a). */
enum {
  PH_TEXT = 0,
  PH_AFTER_BRACKET,
  PH_DEST,
  PH_ANGLE_DEST,
  PH_ANGLE_CLOSE,
  PH_AFTER_DEST,
  PH_AFTER_TITLE,
};

/* Phases of an autolink frame (Frame.a). */
enum { PH_AUTO_DEST = 0, PH_AUTO_CLOSE };

/* Leaf blocks. */
enum {
  L_NONE = 0,
  L_PARAGRAPH,
  L_ATX,
  L_FENCE_INFO,
  L_FENCE_INFO_REST,
  L_FENCE_BODY,
  L_TABLE_HEADER,
  L_TABLE_DELIM,
  L_TABLE_BODY,
  L_REFDEF,
};

/* Phases of a link reference definition (leaf_a). */
enum { R_COLON = 0, R_DEST, R_ANGLE_DEST, R_ANGLE_CLOSE, R_AFTER_DEST, R_DONE };

/* Line states. */
enum { LS_LINE_START = 0, LS_AFTER_PREFIX, LS_IN_LINE };

/* Frontmatter states. */
enum {
  FS_NONE = 0,
  FS_OPEN_T,       /* opening delimiter next, a closing line exists */
  FS_OPEN_U,       /* opening delimiter next, never closed */
  FS_AFTER_OPEN_T, /* rest of the opening line next */
  FS_AFTER_OPEN_U,
  FS_CONTENT,      /* content next (at a line start) */
  FS_CLOSE,        /* closing delimiter next */
};

/* Pending decisions (stored, acted upon by the next call). */
enum {
  PK_NONE = 0,
  /* block starts */
  PK_TEXT,
  PK_QUOTE,
  PK_BULLET,
  PK_ORDERED,
  PK_ATX,
  PK_FENCE,
  PK_THEMATIC,
  PK_HTML_BLOCK,
  PK_REFDEF,
  PK_TABLE,
  /* other */
  PK_FM_OPEN,
  PK_SETEXT1,
  PK_SETEXT2,
  /* emphasis delimiter runs */
  PD_LITERAL,
  PD_EM_OPEN,
  PD_STRONG_OPEN,
  PD_EM_CLOSE,
  PD_STRONG_CLOSE,
};

/* flags */
#define F_STARTED 0x01
#define F_EOL_DECIDED 0x02
#define F_LEAF_ENDS 0x04
#define F_NO_COMMENT_CLOSE 0x08
#define F_IN_ROW 0x10
#define F_AFTER_PIPE 0x20
#define F_FENCE_CLOSING_NEXT 0x40
/* The last token is followed by spaces and the line end: the closes of
 * that line end go before the spaces, the line break token takes them. */
#define F_TRAILING 0x80

/* Character classes for emphasis flanking. */
enum { CL_WS = 0, CL_PUNCT = 1, CL_OTHER = 2 };

/* Interrupt classification of a line (bit set). */
#define IR_SETEXT1 0x01
#define IR_SETEXT2 0x02
#define IR_THEMATIC 0x04
#define IR_BLOCK 0x08
#define IR_PIPE 0x10

typedef struct {
  uint8_t kind;
  uint8_t indent; /* list item: content indentation relative to the parent */
} Container;

typedef struct {
  uint8_t kind;
  uint8_t a; /* emphasis: delimiter char; code: backtick count; link: phase */
  uint8_t b; /* link/image: nesting of literal brackets in the text;
              * emphasis: length of the opening run (RUN_BOTH: it could also
              * close) */
} Frame;

#define RUN_BOTH 0x80
#define RUN_LEN_MAX 0x7f

typedef struct {
  uint8_t flags;
  uint8_t line_state;
  uint8_t fm;
  uint8_t leaf;
  uint8_t leaf_a; /* fence: char; refdef: phase */
  uint8_t leaf_b; /* fence: length (capped at 255) */
  uint8_t line_indent;
  uint8_t pending;
  uint8_t pending_run; /* emphasis run of a pending open (as Frame.b) */
  uint8_t eol_keep;
  uint8_t prev_class;
  uint16_t budget;
  uint8_t n_containers;
  uint8_t n_frames;
  Container containers[MAX_CONTAINERS];
  Frame frames[MAX_FRAMES];
} Scanner;

#define HEADER_SIZE 15

/* One call's view of the lexer: counts characters so that lookaheads can
 * be bounded and the budget replenished. */
typedef struct {
  TSLexer *lx;
  uint32_t pos;  /* characters advanced (or skipped) in this call */
  uint32_t mark; /* pos at the last mark_end */
  uint32_t skipped;
  bool started; /* something was consumed or marked: no more skipping */
  /* Set by line-start classification when it consumed exactly one run of
   * a character (and nothing else) at the start of a line, so that an
   * inline lookahead walking onto that line still sees the run. */
  int32_t run_char;
  uint32_t run_len;
} Ctx;

/* ASCII characters that may end a run of plain text. */
static const uint8_t SPECIAL[128] = {
  ['\0'] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [' '] = 1, ['!'] = 1,
  ['*'] = 1,  ['<'] = 1,  ['['] = 1,  ['\\'] = 1, [']'] = 1, ['_'] = 1,
  ['`'] = 1,  ['|'] = 1,
};

static inline int32_t la(Ctx *x) { return x->lx->lookahead; }

static inline bool at_eof(Ctx *x) {
  return x->lx->lookahead == 0 && x->lx->eof(x->lx);
}

static inline bool at_eol(Ctx *x) {
  int32_t c = x->lx->lookahead;
  return c == '\n' || c == '\r' || (c == 0 && x->lx->eof(x->lx));
}

static inline void adv(Ctx *x) {
  x->lx->advance(x->lx, false);
  x->pos++;
  x->started = true;
}

static inline void skip(Ctx *x) {
  x->lx->advance(x->lx, true);
  x->pos++;
  x->skipped++;
}

static inline void mark(Ctx *x) {
  x->lx->mark_end(x->lx);
  x->mark = x->pos;
  x->started = true;
}

static inline bool emit(Ctx *x, enum TokenType t) {
  x->lx->result_symbol = t;
  return true;
}

static inline bool is_ws(int32_t c) { return c == ' ' || c == '\t'; }

/* After a token's mark (lexer still there): notes whether only spaces
 * remain on the line. */
static inline void note_trailing(uint8_t *flags, Ctx *x) {
  if (!is_ws(x->lx->lookahead)) return;
  while (is_ws(x->lx->lookahead)) {
    x->lx->advance(x->lx, false);
    x->pos++;
  }
  int32_t c = x->lx->lookahead;
  if (c == '\n' || c == '\r' || (c == 0 && x->lx->eof(x->lx))) *flags |= F_TRAILING;
}

/* After a token that ends at the last non-space character of its scan
 * (the lexer at the line end): spaces were skipped after the mark. */
static inline void note_trailing_after_loop(uint8_t *flags, Ctx *x) {
  if (x->pos > x->mark) *flags |= F_TRAILING;
}

static inline bool is_ascii_punct(int32_t c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
         (c >= '{' && c <= '~');
}

static inline bool is_alpha(int32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static inline bool is_digit(int32_t c) { return c >= '0' && c <= '9'; }

static inline bool is_alnum(int32_t c) { return is_alpha(c) || is_digit(c); }

static inline uint8_t char_class(int32_t c) {
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0xa0) {
    return CL_WS;
  }
  if (is_ascii_punct(c)) return CL_PUNCT;
  return CL_OTHER;
}

/* Class of the character after a run (end of line counts as whitespace). */
static inline uint8_t next_class(Ctx *x) { return at_eol(x) ? CL_WS : char_class(la(x)); }

static inline unsigned tab_col(unsigned col) { return (col + 4) & ~3u; }

static void consume_newline(Ctx *x) {
  if (la(x) == '\r') {
    adv(x);
    if (la(x) == '\n') adv(x);
  } else if (la(x) == '\n') {
    adv(x);
  }
}

static void skip_to_eol(Ctx *x) {
  while (!at_eol(x)) adv(x);
}

/* Emphasis flanking (CommonMark 6.2) for a run of `c` between classes. */
static void flanking(int32_t c, uint8_t prev, uint8_t next, bool *can_open, bool *can_close) {
  bool left = next != CL_WS && (next != CL_PUNCT || prev != CL_OTHER);
  bool right = prev != CL_WS && (prev != CL_PUNCT || next != CL_OTHER);
  if (c == '*') {
    *can_open = left;
    *can_close = right;
  } else {
    *can_open = left && (!right || prev == CL_PUNCT);
    *can_close = right && (!left || next == CL_PUNCT);
  }
}

/* CommonMark's "rule of 3": when either run can both open and close, the
 * two run lengths must not sum to a multiple of 3 (unless both are). */
static inline bool rule_of_three_ok(unsigned open_len, bool open_both, unsigned close_len,
                                    bool close_both) {
  if (!open_both && !close_both) return true;
  if ((open_len + close_len) % 3 != 0) return true;
  return open_len % 3 == 0 && close_len % 3 == 0;
}

static inline Frame *top_frame(Scanner *s) {
  return s->n_frames ? &s->frames[s->n_frames - 1] : NULL;
}

/* Index of the innermost link or image whose text is open, or -1. */
static int link_text_frame(Scanner *s) {
  for (int i = (int)s->n_frames - 1; i >= 0; i--) {
    Frame *f = &s->frames[i];
    if ((f->kind == F_LINK || f->kind == F_IMAGE) && f->a == PH_TEXT) return i;
  }
  return -1;
}

static inline bool leaf_is_fence(uint8_t leaf) {
  return leaf == L_FENCE_INFO || leaf == L_FENCE_INFO_REST || leaf == L_FENCE_BODY;
}

static inline bool leaf_is_table(uint8_t leaf) {
  return leaf == L_TABLE_HEADER || leaf == L_TABLE_DELIM || leaf == L_TABLE_BODY;
}

/* ---------------------------------------------------------------------- */
/* Line prefixes                                                          */

typedef struct {
  uint8_t matched;
  uint8_t indent;
  bool blank;
  bool consumed;
} LineMatch;

/* At a line start: matches the prefixes of the first `n` containers and all
 * whitespace after them. A blank line matches list items, not quotes. */
static LineMatch match_line(Scanner *s, Ctx *x, unsigned n) {
  LineMatch m = {0, 0, false, false};
  unsigned col = 0, content = 0, i = 0;
  for (; i < n; i++) {
    while (is_ws(la(x))) {
      col = la(x) == '\t' ? tab_col(col) : col + 1;
      adv(x);
      m.consumed = true;
    }
    Container *c = &s->containers[i];
    if (c->kind == C_QUOTE) {
      if (la(x) != '>' || col - content > 3) break;
      adv(x);
      col++;
      m.consumed = true;
      content = col;
      if (la(x) == ' ') {
        adv(x);
        col++;
        content = col;
      } else if (la(x) == '\t') {
        adv(x);
        content = col + 1;
        col = tab_col(col);
      }
    } else {
      if (at_eol(x)) continue;
      if (col < content + c->indent) break;
      content += c->indent;
    }
  }
  while (is_ws(la(x))) {
    col = la(x) == '\t' ? tab_col(col) : col + 1;
    adv(x);
    m.consumed = true;
  }
  m.matched = (uint8_t)i;
  m.blank = at_eol(x);
  unsigned indent = col > content ? col - content : 0;
  m.indent = (uint8_t)(indent > 255 ? 255 : indent);
  return m;
}

/* ---------------------------------------------------------------------- */
/* Block starts                                                           */

typedef struct {
  bool thematic;
  bool setext;       /* only `-` (or `=`) then spaces */
  bool bullet;       /* marker followed by whitespace or end of line */
  bool bullet_text;  /* ... and then some content */
} MarkerLine;

/* At `-`, `*`, `_`, `+` or `=`: reads the rest of the line (or up to the
 * first character that rules out a thematic break / setext underline). */
static MarkerLine scan_marker_line(Ctx *x, int32_t c0) {
  MarkerLine r = {false, false, false, false};
  adv(x);
  r.bullet = (c0 == '-' || c0 == '*' || c0 == '+') && (is_ws(la(x)) || at_eol(x));
  unsigned count = 1;
  bool only = true, saw_ws = false, setext = c0 == '-' || c0 == '=';
  while (!at_eol(x)) {
    int32_t c = la(x);
    if (c == c0) {
      count++;
      if (saw_ws) setext = false;
    } else if (is_ws(c)) {
      saw_ws = true;
    } else {
      only = false;
      break;
    }
    adv(x);
  }
  r.thematic = only && count >= 3 && (c0 == '-' || c0 == '*' || c0 == '_');
  r.setext = only && setext;
  r.bullet_text = r.bullet && (count > 1 || !only);
  if (!saw_ws) {
    x->run_char = c0;
    x->run_len = count;
  }
  return r;
}

/* At a digit: an ordered list marker `1.` / `1)` (up to 9 digits). Sets
 * `*one` when the number is 1 and `*text` when content follows. */
static bool scan_ordered_marker(Ctx *x, bool *one, bool *text) {
  unsigned digits = 0;
  uint32_t value = 0;
  while (is_digit(la(x)) && digits < 10) {
    value = value * 10 + (uint32_t)(la(x) - '0');
    digits++;
    adv(x);
  }
  if (digits == 0 || digits > 9) return false;
  if (la(x) != '.' && la(x) != ')') return false;
  adv(x);
  if (!is_ws(la(x)) && !at_eol(x)) return false;
  *one = value == 1;
  while (is_ws(la(x))) adv(x);
  *text = !at_eol(x);
  return true;
}

/* At `#`: an ATX heading marker; returns its level or 0. */
static unsigned scan_atx_marker(Ctx *x) {
  unsigned k = 0;
  while (la(x) == '#' && k < 7) {
    adv(x);
    k++;
  }
  if (k > 6) return 0;
  return (is_ws(la(x)) || at_eol(x)) ? k : 0;
}

/* At ` or ~: an opening code fence. */
static bool scan_fence_open(Ctx *x) {
  int32_t c = la(x);
  unsigned k = 0;
  while (la(x) == c) {
    adv(x);
    k++;
  }
  if (k < 3) {
    x->run_char = c;
    x->run_len = k;
    return false;
  }
  if (c == '`') {
    while (!at_eol(x)) {
      if (la(x) == '`') return false;
      adv(x);
    }
  }
  return true;
}

/* Classifies a non-blank line (lexer after its prefix and indentation) as
 * something that may end a paragraph or a table. `full`: the line matched
 * every open container, so a list item there would interrupt the paragraph
 * (only a non-empty one, and an ordered one only from 1); otherwise a list
 * marker starts an item of an outer list and is never a lazy continuation. */
static unsigned classify_interrupt(Ctx *x, unsigned indent, bool full) {
  if (indent >= 4) return 0;
  int32_t c = la(x);
  switch (c) {
    case '#':
      return scan_atx_marker(x) ? IR_BLOCK : 0;
    case '`':
    case '~':
      return scan_fence_open(x) ? IR_BLOCK : 0;
    case '>':
      return IR_BLOCK;
    case '|':
      return IR_PIPE;
    case '<':
      adv(x);
      if (la(x) != '!') return 0;
      adv(x);
      if (la(x) != '-') return 0;
      adv(x);
      return la(x) == '-' ? IR_BLOCK : 0;
    case '-':
    case '*':
    case '_':
    case '+':
    case '=': {
      MarkerLine r = scan_marker_line(x, c);
      unsigned ir = 0;
      if (r.setext) ir |= c == '=' ? IR_SETEXT1 : IR_SETEXT2;
      if (r.thematic) ir |= IR_THEMATIC;
      if (r.bullet_text || (r.bullet && !full)) ir |= IR_BLOCK;
      return ir;
    }
    default:
      if (is_digit(c)) {
        bool one = false, text = false;
        if (scan_ordered_marker(x, &one, &text) && ((one && text) || !full)) return IR_BLOCK;
      }
      return 0;
  }
}

static bool table_start_valid(Scanner *s, Ctx *x);

/* After a paragraph line's end: reads the next line's prefix and start.
 * Returns whether the paragraph goes on; sets *setext when that line is a
 * setext underline (1 or 2) and *m to the prefix match. */
static bool paragraph_next_line(Scanner *s, Ctx *x, LineMatch *m, uint8_t *setext) {
  *setext = 0;
  x->run_char = 0;
  x->run_len = 0;
  consume_newline(x);
  if (at_eof(x)) {
    m->matched = 0;
    m->blank = true;
    return false;
  }
  *m = match_line(s, x, s->n_containers);
  if (m->blank) return false;
  bool full = m->matched == s->n_containers;
  unsigned ir = classify_interrupt(x, m->indent, full);
  if (full && (ir & (IR_SETEXT1 | IR_SETEXT2))) {
    *setext = (ir & IR_SETEXT1) ? 1 : 2;
    return true;
  }
  /* a line starting with `|` ends the paragraph only when a table starts */
  if (ir & IR_PIPE) return !table_start_valid(s, x);
  return !(ir & (IR_THEMATIC | IR_BLOCK));
}

typedef struct {
  uint8_t keep;
  bool leaf_cont;
  uint8_t setext;
} Decision;

/* At a line end (lexer at the line break): what the next line closes. */
static Decision decide(Scanner *s, Ctx *x) {
  Decision d = {0, false, 0};
  unsigned n = s->n_containers;
  if (at_eof(x)) return d;
  LineMatch m;
  uint8_t leaf = s->leaf;
  if (leaf == L_PARAGRAPH) {
    uint8_t setext = 0;
    bool cont = paragraph_next_line(s, x, &m, &setext);
    if (cont) {
      d.leaf_cont = true;
      d.setext = setext;
      d.keep = (uint8_t)n; /* lazy continuation keeps every container */
      return d;
    }
    d.keep = m.matched;
  } else {
    consume_newline(x);
    if (at_eof(x)) return d;
    m = match_line(s, x, n);
    d.keep = m.matched;
    bool full = m.matched == n;
    if (leaf == L_TABLE_HEADER || leaf == L_TABLE_DELIM) {
      d.leaf_cont = full && !m.blank;
    } else if (leaf == L_TABLE_BODY) {
      if (full && !m.blank) {
        /* a table is not a paragraph: any list item ends it */
        unsigned ir = classify_interrupt(x, m.indent, false);
        d.leaf_cont = !(ir & (IR_THEMATIC | IR_BLOCK));
      }
    } else if (leaf_is_fence(leaf)) {
      d.leaf_cont = full;
      if (full) return d;
    }
  }
  if (m.blank && d.keep > 0) {
    /* A list item goes on past blank lines only when the next non-blank
     * line is indented into it. */
    unsigned first_item = d.keep;
    for (unsigned i = 0; i < d.keep; i++) {
      if (s->containers[i].kind == C_ITEM) {
        first_item = i;
        break;
      }
    }
    if (first_item < d.keep) {
      unsigned q = d.keep;
      for (unsigned j = 0;; j++) {
        if (j >= BLANK_LOOKAHEAD) {
          q = 0;
          break;
        }
        skip_to_eol(x);
        if (at_eof(x)) {
          q = 0;
          break;
        }
        consume_newline(x);
        if (at_eof(x)) {
          q = 0;
          break;
        }
        LineMatch mj = match_line(s, x, n);
        if (mj.matched < q) q = mj.matched;
        if (!mj.blank) break;
      }
      for (unsigned i = first_item; i < d.keep; i++) {
        if (s->containers[i].kind == C_ITEM && i >= q) {
          d.keep = (uint8_t)i;
          break;
        }
      }
    }
  }
  return d;
}

static inline bool needs_lookahead(Scanner *s) {
  return s->n_containers > 0 || s->leaf == L_PARAGRAPH || leaf_is_table(s->leaf) ||
         leaf_is_fence(s->leaf);
}

/* ---------------------------------------------------------------------- */
/* Lookahead helpers                                                      */

typedef struct {
  Scanner *s;
  Ctx *x;
  uint32_t start;
  uint32_t limit;
  bool multiline;
  bool table;
  int link_depth; /* >= 0: stop at the `]` that closes the open link text */
} Walk;

static Walk walk_begin(Scanner *s, Ctx *x, bool track_link) {
  Walk w;
  w.s = s;
  w.x = x;
  w.start = x->pos;
  uint32_t budget = (uint32_t)s->budget * 16;
  w.limit = x->pos + (budget < LOOKAHEAD_WINDOW ? budget : LOOKAHEAD_WINDOW);
  w.multiline = s->leaf == L_PARAGRAPH;
  w.table = (s->flags & F_IN_ROW) != 0;
  w.link_depth = -1;
  if (track_link) {
    int l = link_text_frame(s);
    if (l >= 0) w.link_depth = s->frames[l].b;
  }
  return w;
}

static void walk_end(Walk *w) {
  uint32_t used = (w->x->pos - w->start + 15) / 16;
  w->s->budget = used >= w->s->budget ? 0 : (uint16_t)(w->s->budget - used);
}

static inline bool walk_out(Walk *w) { return w->x->pos > w->limit; }

/* At a line end during a walk: moves to the next line's content when the
 * inline content goes on there. */
static bool walk_newline(Walk *w) {
  if (!w->multiline || at_eof(w->x)) return false;
  LineMatch m;
  uint8_t setext = 0;
  return paragraph_next_line(w->s, w->x, &m, &setext) && !setext;
}

/* Tracks brackets for a walk inside link text; false at the closing `]`. */
static inline bool walk_brackets(Walk *w, int32_t c) {
  if (w->link_depth < 0) return true;
  if (c == '[') {
    w->link_depth++;
  } else if (c == ']') {
    if (--w->link_depth < 0) return false;
  }
  return true;
}

/* After an opening run of `n` backticks: is there a closing run? */
static bool find_code_close(Scanner *s, Ctx *x, unsigned n) {
  Walk w = walk_begin(s, x, true);
  bool found = false;
  while (!walk_out(&w)) {
    if (at_eol(x)) {
      if (!walk_newline(&w)) break;
      if (x->run_char == '`' && x->run_len == n) {
        found = true;
        break;
      }
      continue;
    }
    int32_t c = la(x);
    if (w.table && c == '|') break;
    if (w.table && c == '\\') {
      /* `\|` is a cell's escaped pipe, even inside a code span */
      adv(x);
      if (la(x) == '|') adv(x);
      continue;
    }
    if (c == '`') {
      unsigned k = 0;
      while (la(x) == '`') {
        adv(x);
        k++;
      }
      if (k == n) {
        found = true;
        break;
      }
      continue;
    }
    if (!walk_brackets(&w, c)) break;
    adv(x);
  }
  walk_end(&w);
  return found;
}

/* After an opening emphasis run of `c` (`open_len` long; `open_both`: it
 * could also close): is there a closing run of at least `k` characters at
 * the same nesting depth? */
static bool find_delim_close(Scanner *s, Ctx *x, int32_t c, unsigned k, unsigned open_len,
                             bool open_both) {
  Walk w = walk_begin(s, x, true);
  bool found = false;
  uint8_t prev = CL_PUNCT;
  unsigned depth = 1;
  while (!walk_out(&w)) {
    if (at_eol(x)) {
      if (!walk_newline(&w)) break;
      prev = CL_WS;
      if (x->run_char == c) {
        /* the line starts with a run of `c` that classification consumed;
         * at a line start it cannot close, it may open */
        bool co, cc;
        flanking(c, CL_WS, next_class(x), &co, &cc);
        if (co && ++depth > MAX_NESTING) break;
        prev = CL_PUNCT;
      }
      continue;
    }
    int32_t ch = la(x);
    if (w.table && ch == '|') break;
    if (ch == '\\') {
      adv(x);
      if (is_ascii_punct(la(x))) adv(x);
      prev = CL_PUNCT;
      continue;
    }
    if (!walk_brackets(&w, ch)) break;
    if (ch == c) {
      unsigned r = 0;
      while (la(x) == c) {
        adv(x);
        r++;
      }
      bool co, cc;
      flanking(c, prev, next_class(x), &co, &cc);
      if (cc && (depth > 1 || rule_of_three_ok(open_len, open_both, r, co))) {
        if (depth == 1) {
          if (r >= k) {
            found = true;
            break;
          }
        } else {
          depth--;
        }
      } else if (co && !cc) {
        /* only a run that cannot close nests (CommonMark drops openers
         * left unmatched between a closer and its opener) */
        if (++depth > MAX_NESTING) break;
      }
      prev = CL_PUNCT;
      continue;
    }
    adv(x);
    prev = char_class(ch);
  }
  walk_end(&w);
  return found;
}

/* A link destination (`<...>` or a run without spaces and with balanced
 * parentheses). */
static bool scan_dest(Ctx *x, bool table) {
  if (la(x) == '<') {
    adv(x);
    for (;;) {
      if (at_eol(x)) return false;
      int32_t c = la(x);
      if (c == '>') {
        adv(x);
        return true;
      }
      if (c == '<') return false;
      adv(x);
      if (c == '\\' && is_ascii_punct(la(x))) adv(x);
    }
  }
  unsigned par = 0, len = 0;
  for (;;) {
    if (at_eol(x)) break;
    int32_t c = la(x);
    if (is_ws(c) || (c >= 0 && c < 0x20) || c == 0x7f) break;
    if (table && c == '|') break;
    if (c == '\\') {
      adv(x);
      if (is_ascii_punct(la(x))) adv(x);
      len++;
      continue;
    }
    if (c == '(') {
      if (++par > MAX_NESTING) return false;
    } else if (c == ')') {
      if (par == 0) break;
      par--;
    }
    adv(x);
    len++;
  }
  return len > 0 && par == 0;
}

/* A link title: "...", '...' or (...), on one line. */
static bool scan_title(Ctx *x, bool table) {
  int32_t open = la(x);
  int32_t close = open == '(' ? ')' : open;
  if (open != '"' && open != '\'' && open != '(') return false;
  adv(x);
  for (;;) {
    if (at_eol(x)) return false;
    int32_t c = la(x);
    if (c == close) {
      adv(x);
      return true;
    }
    if (open == '(' && c == '(') return false;
    if (table && c == '|') return false;
    adv(x);
    if (c == '\\' && is_ascii_punct(la(x))) adv(x);
  }
}

/* After a link's closing `]`: `(dest "title")`, `[label]` or `[]`. */
static bool link_tail_valid(Ctx *x, bool table) {
  if (la(x) == '(') {
    adv(x);
    while (is_ws(la(x))) adv(x);
    if (la(x) == ')') return true;
    if (!scan_dest(x, table)) return false;
    bool ws = false;
    while (is_ws(la(x))) {
      adv(x);
      ws = true;
    }
    if (la(x) == ')') return true;
    if (!ws || !scan_title(x, table)) return false;
    while (is_ws(la(x))) adv(x);
    return la(x) == ')';
  }
  if (la(x) == '[') {
    adv(x);
    unsigned len = 0;
    for (;;) {
      if (at_eol(x)) return false;
      int32_t c = la(x);
      if (c == ']') return true;
      if (c == '[' || (table && c == '|')) return false;
      adv(x);
      if (c == '\\' && is_ascii_punct(la(x))) adv(x);
      if (++len > 999) return false;
    }
  }
  return false;
}

/* After `[` (or `![`): does a matching `]` with a link tail follow? */
static bool find_link_close(Scanner *s, Ctx *x) {
  Walk w = walk_begin(s, x, false);
  bool found = false;
  unsigned depth = 1;
  while (!walk_out(&w)) {
    if (at_eol(x)) {
      if (!walk_newline(&w)) break;
      continue;
    }
    int32_t c = la(x);
    if (w.table && c == '|') break;
    if (c == '\\') {
      adv(x);
      if (is_ascii_punct(la(x))) adv(x);
      continue;
    }
    if (c == '[') {
      if (++depth > MAX_NESTING) break;
    } else if (c == ']') {
      if (--depth == 0) {
        adv(x);
        found = link_tail_valid(x, w.table);
        break;
      }
    }
    adv(x);
  }
  walk_end(&w);
  return found;
}

/* After `<`: an autolink `<scheme:...>` or `<user@host>`. */
static bool autolink_valid(Ctx *x, bool table) {
  static const char *email_punct = ".!#$%&'*+/=?^_`{|}~-";
  unsigned len = 0;
  bool scheme_ok = is_alpha(la(x)), email_ok = true;
  for (;;) {
    int32_t c = la(x);
    if (c == ':') {
      if (!scheme_ok || len < 2 || len > 32) return false;
      adv(x);
      for (;;) {
        if (at_eol(x)) return false;
        int32_t d = la(x);
        if (d == '>') return true;
        if (d == '<' || (d >= 0 && d <= ' ') || d == 0x7f) return false;
        if (table && d == '|') return false;
        adv(x);
      }
    }
    if (c == '@') {
      if (!email_ok || len == 0) return false;
      adv(x);
      unsigned dl = 0;
      for (;;) {
        int32_t d = la(x);
        if (d == '>') return dl > 0;
        if (!is_alnum(d) && d != '-' && d != '.') return false;
        adv(x);
        dl++;
      }
    }
    bool sch = is_alnum(c) || c == '+' || c == '.' || c == '-';
    bool em = is_alnum(c) || (c > 0 && c < 128 && strchr(email_punct, (int)c) != NULL);
    if (!sch) scheme_ok = false;
    if (!em || (table && c == '|')) email_ok = false;
    if (!scheme_ok && !email_ok) return false;
    if (at_eol(x)) return false;
    adv(x);
    if (++len > 254) return false;
  }
}

/* After `<!--`: reads up to the end of the comment. Remembers when there is
 * no `-->` before the end of the file. `one_line`: the comment must end on
 * this line (headings, table rows), and in a table cell (`cell`) before the
 * next `|`. */
static bool scan_comment_body_in(Scanner *s, Ctx *x, bool one_line, bool cell) {
  unsigned dashes = 0;
  if (la(x) == '>') {
    adv(x);
    return true;
  }
  if (la(x) == '-') {
    adv(x);
    if (la(x) == '>') {
      adv(x);
      return true;
    }
    dashes = 1;
  }
  for (;;) {
    if (at_eof(x)) {
      if (!one_line) s->flags |= F_NO_COMMENT_CLOSE;
      return false;
    }
    int32_t c = la(x);
    if ((one_line && (c == '\n' || c == '\r')) || (cell && c == '|')) return false;
    if (c == '-') {
      dashes++;
    } else if (c == '>' && dashes >= 2) {
      adv(x);
      return true;
    } else {
      dashes = 0;
    }
    adv(x);
  }
}

static bool scan_comment_body(Scanner *s, Ctx *x) { return scan_comment_body_in(s, x, false, false); }

/* At `<`: `<!--`? Consumes it when so. */
static bool scan_comment_open(Ctx *x) {
  if (la(x) != '<') return false;
  adv(x);
  if (la(x) != '!') return false;
  adv(x);
  if (la(x) != '-') return false;
  adv(x);
  if (la(x) != '-') return false;
  adv(x);
  return true;
}

/* Cells of a table row (lexer at its start): `| a | b |` has 2. Reads to
 * the end of the line. When `delim`, every cell must be `:?-+:?` and
 * *ok says so. */
static unsigned count_cells(Ctx *x, bool delim, bool *ok, unsigned *pipes_out) {
  unsigned segments = 0, pipes = 0;
  bool first_blank = true, seg_blank = true, seg_ok = true, all_ok = true;
  unsigned dashes = 0;
  int colon_state = 0; /* 0: before dashes, 1: in dashes, 2: after (colon seen) */
  for (;;) {
    bool end = at_eol(x);
    int32_t c = end ? 0 : la(x);
    if (end || c == '|') {
      if (segments == 0) first_blank = seg_blank;
      if (!seg_blank && delim && (!seg_ok || dashes == 0)) all_ok = false;
      if (seg_blank && segments > 0 && !end) all_ok = false; /* empty middle cell */
      segments++;
      if (end) break;
      pipes++;
      seg_blank = true;
      seg_ok = true;
      dashes = 0;
      colon_state = 0;
      adv(x);
      continue;
    }
    if (!is_ws(c)) {
      seg_blank = false;
      if (delim) {
        if (c == '-') {
          if (colon_state == 2) seg_ok = false;
          colon_state = 1;
          dashes++;
        } else if (c == ':') {
          if (colon_state == 1) {
            colon_state = 2;
          } else if (dashes > 0 || colon_state == 2) {
            seg_ok = false;
          }
        } else {
          seg_ok = false;
        }
      }
    } else if (delim && colon_state == 1) {
      colon_state = 2;
    }
    adv(x);
    if (c == '\\' && la(x) == '|') adv(x);
  }
  /* segments counts the last one; drop blank first/last segments */
  unsigned cells = segments;
  if (first_blank && cells > 0) cells--;
  if (seg_blank && pipes > 0 && cells > 0) cells--;
  *ok = all_ok && pipes > 0;
  *pipes_out = pipes;
  return cells;
}

/* At a block start: a header row (with at least one `|`) followed by a
 * delimiter row with as many cells. */
static bool table_start_valid(Scanner *s, Ctx *x) {
  bool ok = true;
  unsigned pipes = 0;
  unsigned header = count_cells(x, false, &ok, &pipes);
  if (header == 0 || pipes == 0 || at_eof(x)) return false;
  consume_newline(x);
  if (at_eof(x)) return false;
  LineMatch m = match_line(s, x, s->n_containers);
  if (m.matched < s->n_containers || m.blank || m.indent >= 4) return false;
  unsigned delim = count_cells(x, true, &ok, &pipes);
  return ok && delim == header;
}

/* At `[` of a block start: `[label]: dest "title"` alone on its line. */
static bool refdef_valid(Ctx *x) {
  adv(x);
  unsigned len = 0;
  bool text = false;
  for (;;) {
    if (at_eol(x)) return false;
    int32_t c = la(x);
    if (c == ']') break;
    if (c == '[') return false;
    if (!is_ws(c)) text = true;
    adv(x);
    if (c == '\\' && is_ascii_punct(la(x))) adv(x);
    if (++len > 999) return false;
  }
  if (!text) return false;
  adv(x);
  if (la(x) != ':') return false;
  adv(x);
  while (is_ws(la(x))) adv(x);
  if (at_eol(x) || !scan_dest(x, false)) return false;
  bool ws = false;
  while (is_ws(la(x))) {
    adv(x);
    ws = true;
  }
  if (at_eol(x)) return true;
  if (!ws || !scan_title(x, false)) return false;
  while (is_ws(la(x))) adv(x);
  return at_eol(x);
}

/* Classifies the start of a block (lexer at the first content character). */
static uint8_t classify_block(Scanner *s, Ctx *x) {
  int32_t c = la(x);
  bool room = s->n_containers < MAX_CONTAINERS;
  switch (c) {
    case '>':
      return room ? PK_QUOTE : PK_TEXT;
    case '#':
      return scan_atx_marker(x) ? PK_ATX : PK_TEXT;
    case '`':
    case '~':
      return scan_fence_open(x) ? PK_FENCE : PK_TEXT;
    case '-':
    case '*':
    case '_':
    case '+': {
      MarkerLine r = scan_marker_line(x, c);
      if (r.thematic) return PK_THEMATIC;
      if (r.bullet && room) return PK_BULLET;
      return PK_TEXT;
    }
    case '<':
      if ((s->flags & F_NO_COMMENT_CLOSE) || !scan_comment_open(x)) return PK_TEXT;
      if (!scan_comment_body(s, x)) return PK_TEXT;
      while (is_ws(la(x))) adv(x);
      return at_eol(x) ? PK_HTML_BLOCK : PK_TEXT;
    case '|':
      return table_start_valid(s, x) ? PK_TABLE : PK_TEXT;
    case '[':
      return refdef_valid(x) ? PK_REFDEF : PK_TEXT;
    default:
      if (is_digit(c) && room) {
        bool one = false, text = false;
        return scan_ordered_marker(x, &one, &text) ? PK_ORDERED : PK_TEXT;
      }
      return PK_TEXT;
  }
}

static inline bool is_block_start_char(int32_t c) {
  switch (c) {
    case '>':
    case '#':
    case '`':
    case '~':
    case '-':
    case '*':
    case '_':
    case '+':
    case '<':
    case '|':
    case '[':
      return true;
    default:
      return is_digit(c);
  }
}

/* ---------------------------------------------------------------------- */
/* Closing                                                                */

/* Closes the innermost inline frame with a zero-width token (the caller
 * has marked the position). */
static bool force_close_top(Scanner *s, Ctx *x) {
  Frame f = s->frames[--s->n_frames];
  s->prev_class = CL_PUNCT;
  switch (f.kind) {
    case F_EMPH:
      return emit(x, EM_CLOSE);
    case F_STRONG:
      return emit(x, STRONG_CLOSE);
    case F_CODE:
      return emit(x, CODE_DELIM);
    case F_AUTOLINK:
      return emit(x, AUTOLINK_CLOSE);
    default:
      if (f.a == PH_TEXT || f.a == PH_AFTER_BRACKET) return emit(x, LINK_ABORT);
      if (f.a == PH_ANGLE_DEST || f.a == PH_ANGLE_CLOSE) {
        f.a = PH_AFTER_DEST;
        s->frames[s->n_frames++] = f;
        return emit(x, ANGLE_CLOSE);
      }
      return emit(x, DEST_CLOSE);
  }
}

/* At a line end (or the end of the file): closes what the line end closes,
 * one zero-width token per call, then consumes the line break. */
static bool handle_eol(Scanner *s, Ctx *x) {
  if (!(s->flags & F_TRAILING)) mark(x);
  if (s->flags & F_IN_ROW) {
    if (s->n_frames) return force_close_top(s, x);
    s->flags &= (uint8_t)~(F_IN_ROW | F_AFTER_PIPE);
    if (s->leaf == L_TABLE_HEADER) s->leaf = L_TABLE_DELIM;
    return emit(x, ROW_END);
  }
  if (s->leaf == L_REFDEF && (s->leaf_a == R_ANGLE_DEST || s->leaf_a == R_ANGLE_CLOSE)) {
    s->leaf_a = R_DONE;
    return emit(x, ANGLE_CLOSE);
  }
  bool looked = false;
  if (!(s->flags & F_EOL_DECIDED)) {
    Decision d = {0, false, 0};
    if (!at_eof(x) && needs_lookahead(s)) {
      d = decide(s, x);
      looked = true;
    }
    s->flags |= F_EOL_DECIDED;
    if (d.leaf_cont) {
      s->flags &= (uint8_t)~F_LEAF_ENDS;
    } else {
      s->flags |= F_LEAF_ENDS;
    }
    s->eol_keep = d.keep;
    if (d.setext) s->pending = d.setext == 1 ? PK_SETEXT1 : PK_SETEXT2;
  }
  bool leaf_ends = (s->flags & F_LEAF_ENDS) != 0;
  bool setext = s->pending == PK_SETEXT1 || s->pending == PK_SETEXT2;
  if (s->n_frames && (leaf_ends || setext || s->leaf != L_PARAGRAPH)) return force_close_top(s, x);
  if (leaf_ends && s->leaf != L_NONE) {
    s->leaf = L_NONE;
    return emit(x, BLOCK_CLOSE);
  }
  if (s->leaf == L_FENCE_INFO || s->leaf == L_FENCE_INFO_REST) s->leaf = L_FENCE_BODY;
  if (s->n_containers > s->eol_keep) {
    s->n_containers--;
    return emit(x, BLOCK_CLOSE);
  }
  if (looked) return emit(x, DECISION);
  if (at_eof(x)) {
    if (x->pos == x->mark) return false;
    /* spaces before the end of the file: the last line break token */
    mark(x);
    s->flags &= (uint8_t)~F_TRAILING;
    return emit(x, NEWLINE);
  }
  consume_newline(x);
  mark(x);
  s->flags &= (uint8_t)~(F_EOL_DECIDED | F_LEAF_ENDS | F_TRAILING);
  s->line_state = LS_LINE_START;
  s->prev_class = CL_WS;
  return emit(x, NEWLINE);
}

/* ---------------------------------------------------------------------- */
/* Inline                                                                 */

/* A run of plain text from the current position. Stops before anything
 * that may start or end a construct, and before trailing whitespace. */
static bool text_run(Scanner *s, Ctx *x, bool any) {
  bool table = (s->flags & F_IN_ROW) != 0;
  bool atx = s->leaf == L_ATX;
  bool linkctx = link_text_frame(s) >= 0;
  uint8_t prev = s->prev_class, prev_at_mark = prev;
  for (;;) {
    int32_t c = la(x);
    if (c < 0 || c >= 128) {
      adv(x);
      prev = char_class(c);
      any = true;
      continue;
    }
    if (!SPECIAL[c]) {
      adv(x);
      prev = char_class(c);
      any = true;
      continue;
    }
    switch (c) {
      case 0:
        if (at_eof(x)) goto done;
        adv(x);
        prev = CL_OTHER;
        any = true;
        continue;
      case '\n':
      case '\r':
        goto done;
      case ' ':
      case '\t':
        mark(x);
        prev_at_mark = prev;
        while (is_ws(la(x))) adv(x);
        if (at_eol(x)) {
          s->flags |= F_TRAILING;
          goto at_mark;
        }
        if (table && la(x) == '|') goto at_mark;
        if (atx && la(x) == '#') {
          while (la(x) == '#') adv(x);
          prev = CL_PUNCT;
          while (is_ws(la(x))) {
            adv(x);
            prev = CL_WS;
          }
          if (at_eol(x)) goto at_mark;
        } else {
          prev = CL_WS;
        }
        any = true;
        continue;
      case '\\':
        adv(x);
        if (is_ascii_punct(la(x))) adv(x);
        prev = CL_PUNCT;
        any = true;
        continue;
      case '!':
        mark(x);
        prev_at_mark = prev;
        adv(x);
        if (la(x) == '[') goto at_mark;
        prev = CL_PUNCT;
        any = true;
        continue;
      case ']':
        if (linkctx && any) {
          mark(x);
          prev_at_mark = prev;
          goto at_mark;
        }
        adv(x);
        prev = CL_PUNCT;
        any = true;
        continue;
      case '|':
        if (table && any) {
          mark(x);
          prev_at_mark = prev;
          goto at_mark;
        }
        adv(x);
        prev = CL_PUNCT;
        any = true;
        continue;
      case '*':
      case '_': {
        mark(x);
        prev_at_mark = prev;
        while (la(x) == c) adv(x);
        bool co, cc;
        flanking(c, prev, next_class(x), &co, &cc);
        Frame *top = top_frame(s);
        bool closes = cc && top && (top->kind == F_EMPH || top->kind == F_STRONG) && top->a == c;
        if ((co || closes) && any) goto at_mark;
        prev = CL_PUNCT;
        any = true;
        continue;
      }
      default: /* ` [ < */
        if (any) {
          mark(x);
          prev_at_mark = prev;
          goto at_mark;
        }
        adv(x);
        prev = CL_PUNCT;
        any = true;
        continue;
    }
  }
done:
  if (!any) {
    /* cannot happen (callers start on a character of the run); consume one
     * character rather than emit an empty token */
    if (at_eof(x)) return false;
    adv(x);
    prev = CL_OTHER;
  }
  mark(x);
  s->prev_class = prev;
  return emit(x, TEXT);
at_mark:
  s->prev_class = prev_at_mark;
  return emit(x, TEXT);
}

static bool push_frame(Scanner *s, uint8_t kind, uint8_t a) {
  if (s->n_frames >= MAX_FRAMES) return false;
  Frame f = {kind, a, 0};
  s->frames[s->n_frames++] = f;
  return true;
}

/* At a run of backticks outside a code span. */
static bool scan_backtick_open(Scanner *s, Ctx *x) {
  unsigned n = 0;
  while (la(x) == '`') {
    adv(x);
    n++;
  }
  mark(x);
  s->prev_class = CL_PUNCT;
  if (n <= 255 && s->n_frames < MAX_FRAMES && find_code_close(s, x, n)) {
    push_frame(s, F_CODE, (uint8_t)n);
    return emit(x, CODE_DELIM);
  }
  return emit(x, TEXT);
}

/* Inside a code span: content or the closing run. */
static bool scan_code_body(Scanner *s, Ctx *x, Frame *top) {
  bool table = (s->flags & F_IN_ROW) != 0;
  if (table && la(x) == '|') return force_close_top(s, x);
  if (la(x) == '`') {
    unsigned n = 0;
    while (la(x) == '`') {
      adv(x);
      n++;
    }
    if (n == top->a) {
      mark(x);
      s->n_frames--;
      s->prev_class = CL_PUNCT;
      note_trailing(&s->flags, x);
      return emit(x, CODE_DELIM);
    }
  }
  while (!at_eol(x) && la(x) != '`' && !(table && la(x) == '|')) {
    int32_t c = la(x);
    adv(x);
    if (table && c == '\\' && la(x) == '|') adv(x);
  }
  mark(x);
  return emit(x, CODE_TEXT);
}

/* At a run of `*` or `_`: decides, stores the decision, emits `_decision`
 * (or plain text when the run is literal). */
static bool scan_delim_run(Scanner *s, Ctx *x, int32_t c) {
  uint8_t p = s->prev_class;
  unsigned n = 0;
  while (la(x) == c) {
    adv(x);
    n++;
  }
  bool co, cc;
  flanking(c, p, next_class(x), &co, &cc);
  Frame *top = top_frame(s);
  if (cc && top && (top->kind == F_EMPH || top->kind == F_STRONG) && top->a == c &&
      rule_of_three_ok(top->b & RUN_LEN_MAX, (top->b & RUN_BOTH) != 0, n, co)) {
    unsigned k = top->kind == F_STRONG ? 2 : 1;
    if (n >= k) {
      s->pending = k == 2 ? PD_STRONG_CLOSE : PD_EM_CLOSE;
      return emit(x, DECISION);
    }
  }
  if (co && n <= 3 && s->n_frames < MAX_FRAMES) {
    unsigned k = n == 1 ? 1 : 2;
    bool found = find_delim_close(s, x, c, k, n, cc);
    s->pending = found ? (k == 1 ? PD_EM_OPEN : PD_STRONG_OPEN) : PD_LITERAL;
    s->pending_run = (uint8_t)(n | (cc ? RUN_BOTH : 0));
    return emit(x, DECISION);
  }
  mark(x);
  s->prev_class = CL_PUNCT;
  note_trailing(&s->flags, x);
  return emit(x, TEXT);
}

/* Acts on a stored emphasis decision. */
static bool act_delim(Scanner *s, Ctx *x) {
  uint8_t a = s->pending;
  s->pending = PK_NONE;
  int32_t c = la(x);
  uint8_t p = s->prev_class;
  enum TokenType t = TEXT;
  switch (a) {
    case PD_EM_OPEN:
      adv(x);
      if (push_frame(s, F_EMPH, (uint8_t)c)) s->frames[s->n_frames - 1].b = s->pending_run;
      t = EM_OPEN;
      break;
    case PD_STRONG_OPEN:
      adv(x);
      adv(x);
      if (push_frame(s, F_STRONG, (uint8_t)c)) s->frames[s->n_frames - 1].b = s->pending_run;
      t = STRONG_OPEN;
      break;
    case PD_EM_CLOSE:
      adv(x);
      s->n_frames--;
      t = EM_CLOSE;
      break;
    case PD_STRONG_CLOSE:
      adv(x);
      adv(x);
      s->n_frames--;
      t = STRONG_CLOSE;
      break;
    default:
      while (la(x) == c) adv(x);
      break;
  }
  mark(x);
  /* the rest of a run is judged as part of the same run */
  s->prev_class = (t != TEXT && la(x) == c) ? p : CL_PUNCT;
  note_trailing(&s->flags, x);
  return emit(x, t);
}

/* At `[` (after `!` for an image). */
static bool scan_bracket_open(Scanner *s, Ctx *x, bool image) {
  adv(x);
  mark(x);
  s->prev_class = CL_PUNCT;
  int l = link_text_frame(s);
  bool allowed = s->n_frames < MAX_FRAMES && (image || l < 0);
  if (allowed && find_link_close(s, x)) {
    push_frame(s, image ? F_IMAGE : F_LINK, PH_TEXT);
    return emit(x, image ? IMAGE_OPEN : LINK_OPEN);
  }
  if (l >= 0 && s->frames[l].b < 255) s->frames[l].b++;
  return emit(x, TEXT);
}

/* At `]`. */
static bool scan_bracket_close(Scanner *s, Ctx *x) {
  int l = link_text_frame(s);
  if (l < 0) {
    adv(x);
    s->prev_class = CL_PUNCT;
    return text_run(s, x, true);
  }
  Frame *f = &s->frames[l];
  if (f->b > 0) {
    f->b--;
    adv(x);
    mark(x);
    s->prev_class = CL_PUNCT;
    return emit(x, TEXT);
  }
  if (l != (int)s->n_frames - 1) return force_close_top(s, x);
  adv(x);
  mark(x);
  f->a = PH_AFTER_BRACKET;
  s->prev_class = CL_PUNCT;
  return emit(x, LINK_TEXT_CLOSE);
}

/* The destination/title part of a link or image. */
static bool scan_link_tail(Scanner *s, Ctx *x, Frame *top) {
  bool table = (s->flags & F_IN_ROW) != 0;
  s->prev_class = CL_PUNCT;
  switch (top->a) {
    case PH_AFTER_BRACKET:
      if (la(x) == '(') {
        adv(x);
        while (is_ws(la(x))) adv(x);
        mark(x);
        top->a = PH_DEST;
        return emit(x, DEST_OPEN);
      }
      if (la(x) == '[') {
        adv(x);
        while (!at_eol(x) && la(x) != ']') {
          int32_t c = la(x);
          adv(x);
          if (c == '\\' && is_ascii_punct(la(x))) adv(x);
        }
        if (la(x) == ']') adv(x);
        mark(x);
        s->n_frames--;
        note_trailing(&s->flags, x);
        return emit(x, LINK_LABEL);
      }
      s->n_frames--;
      return emit(x, LINK_ABORT);
    case PH_DEST:
      if (la(x) == ')') {
        adv(x);
        mark(x);
        s->n_frames--;
        note_trailing(&s->flags, x);
        return emit(x, DEST_CLOSE);
      }
      if (la(x) == '<') {
        adv(x);
        mark(x);
        top->a = PH_ANGLE_DEST;
        return emit(x, ANGLE_OPEN);
      }
      if (scan_dest(x, table)) {
        mark(x);
        top->a = PH_AFTER_DEST;
        return emit(x, LINK_DEST);
      }
      s->n_frames--;
      return emit(x, DEST_CLOSE);
    case PH_ANGLE_DEST: {
      if (la(x) == '>') {
        adv(x);
        mark(x);
        top->a = PH_AFTER_DEST;
        return emit(x, ANGLE_CLOSE);
      }
      bool any = false;
      while (!at_eol(x) && la(x) != '>' && la(x) != '<') {
        int32_t c = la(x);
        adv(x);
        any = true;
        if (c == '\\' && is_ascii_punct(la(x))) adv(x);
      }
      if (!any) {
        top->a = PH_AFTER_DEST;
        return emit(x, ANGLE_CLOSE);
      }
      mark(x);
      top->a = PH_ANGLE_CLOSE;
      return emit(x, LINK_DEST);
    }
    case PH_ANGLE_CLOSE:
      if (la(x) == '>') {
        adv(x);
        mark(x);
      }
      top->a = PH_AFTER_DEST;
      return emit(x, ANGLE_CLOSE);
    case PH_AFTER_DEST:
      if (la(x) == ')') {
        adv(x);
        mark(x);
        s->n_frames--;
        note_trailing(&s->flags, x);
        return emit(x, DEST_CLOSE);
      }
      if (scan_title(x, table)) {
        mark(x);
        top->a = PH_AFTER_TITLE;
        return emit(x, LINK_TITLE);
      }
      s->n_frames--;
      return emit(x, DEST_CLOSE);
    default:
      if (la(x) == ')') {
        adv(x);
        mark(x);
        note_trailing(&s->flags, x);
      }
      s->n_frames--;
      return emit(x, DEST_CLOSE);
  }
}

/* The destination and closing `>` of an autolink. */
static bool scan_autolink_tail(Scanner *s, Ctx *x, Frame *top) {
  s->prev_class = CL_PUNCT;
  if (top->a == PH_AUTO_DEST && la(x) != '>') {
    while (!at_eol(x) && la(x) != '>') adv(x);
    mark(x);
    top->a = PH_AUTO_CLOSE;
    return emit(x, LINK_DEST);
  }
  if (la(x) == '>') {
    adv(x);
    mark(x);
    note_trailing(&s->flags, x);
  }
  s->n_frames--;
  return emit(x, AUTOLINK_CLOSE);
}

/* At `<`: HTML comment, autolink or a literal `<`. */
static bool scan_angle(Scanner *s, Ctx *x) {
  bool table = (s->flags & F_IN_ROW) != 0;
  adv(x);
  mark(x);
  s->prev_class = CL_PUNCT;
  if (la(x) == '!') {
    if (!(s->flags & F_NO_COMMENT_CLOSE)) {
      adv(x);
      if (la(x) == '-') {
        adv(x);
        if (la(x) == '-') {
          adv(x);
          bool one_line = table || s->leaf == L_ATX;
          if (scan_comment_body_in(s, x, one_line, table)) {
            mark(x);
            note_trailing(&s->flags, x);
            return emit(x, HTML_COMMENT);
          }
        }
      }
    }
    return emit(x, TEXT);
  }
  if (s->n_frames < MAX_FRAMES && autolink_valid(x, table)) {
    push_frame(s, F_AUTOLINK, PH_AUTO_DEST);
    return emit(x, AUTOLINK_OPEN);
  }
  return emit(x, TEXT);
}

/* Link reference definition after its label. */
static bool scan_refdef(Scanner *s, Ctx *x) {
  switch (s->leaf_a) {
    case R_COLON:
      if (la(x) == ':') {
        adv(x);
        while (is_ws(la(x))) adv(x);
        mark(x);
        s->leaf_a = R_DEST;
        return emit(x, REFDEF_COLON);
      }
      s->leaf_a = R_DONE;
      return emit(x, REFDEF_COLON);
    case R_DEST:
      if (la(x) == '<') {
        adv(x);
        mark(x);
        s->leaf_a = R_ANGLE_DEST;
        return emit(x, ANGLE_OPEN);
      }
      if (scan_dest(x, false)) {
        mark(x);
        s->leaf_a = R_AFTER_DEST;
        return emit(x, LINK_DEST);
      }
      break;
    case R_ANGLE_DEST:
      if (la(x) == '>') {
        adv(x);
        mark(x);
        s->leaf_a = R_AFTER_DEST;
        return emit(x, ANGLE_CLOSE);
      }
      while (!at_eol(x) && la(x) != '>' && la(x) != '<') {
        int32_t c = la(x);
        adv(x);
        if (c == '\\' && is_ascii_punct(la(x))) adv(x);
      }
      mark(x);
      s->leaf_a = R_ANGLE_CLOSE;
      return emit(x, LINK_DEST);
    case R_ANGLE_CLOSE:
      if (la(x) == '>') {
        adv(x);
        mark(x);
      }
      s->leaf_a = R_AFTER_DEST;
      return emit(x, ANGLE_CLOSE);
    case R_AFTER_DEST:
      if (scan_title(x, false)) {
        mark(x);
        s->leaf_a = R_DONE;
        return emit(x, LINK_TITLE);
      }
      break;
    default:
      break;
  }
  /* unexpected bytes: keep them out of the tree (an extra) */
  skip_to_eol(x);
  mark(x);
  s->leaf_a = R_DONE;
  return emit(x, LINE_PREFIX);
}

/* The info string of an opening fence. */
static bool scan_info(Scanner *s, Ctx *x) {
  if (s->leaf == L_FENCE_INFO) {
    while (!at_eol(x) && !is_ws(la(x))) adv(x);
    mark(x);
    s->leaf = L_FENCE_INFO_REST;
    note_trailing(&s->flags, x);
    return emit(x, LANGUAGE);
  }
  while (!at_eol(x)) {
    bool ws = is_ws(la(x));
    adv(x);
    if (!ws) mark(x);
  }
  note_trailing_after_loop(&s->flags, x);
  return emit(x, INFO_REST);
}

/* Inline content of paragraphs, headings, table cells. */
static bool scan_inline(Scanner *s, Ctx *x) {
  if (s->flags & F_TRAILING) {
    /* the spaces before the line end go with the line break */
    mark(x);
    while (is_ws(la(x))) adv(x);
    if (at_eol(x)) return handle_eol(s, x);
    s->flags &= (uint8_t)~F_TRAILING;
  } else if (!x->started) {
    bool any = false;
    while (is_ws(la(x))) {
      skip(x);
      any = true;
    }
    if (any) s->prev_class = CL_WS;
  }
  if (at_eol(x)) return handle_eol(s, x);
  mark(x);
  if (s->leaf == L_REFDEF) return scan_refdef(s, x);
  if (s->leaf == L_FENCE_INFO || s->leaf == L_FENCE_INFO_REST) return scan_info(s, x);
  if (s->leaf == L_NONE || s->leaf == L_FENCE_BODY || s->leaf == L_TABLE_DELIM) {
    /* unexpected bytes after a complete block on this line: an extra */
    skip_to_eol(x);
    mark(x);
    return emit(x, LINE_PREFIX);
  }
  if (s->pending >= PD_LITERAL) return act_delim(s, x);
  Frame *top = top_frame(s);
  if (top) {
    if (top->kind == F_CODE) return scan_code_body(s, x, top);
    if ((top->kind == F_LINK || top->kind == F_IMAGE) && top->a != PH_TEXT) {
      return scan_link_tail(s, x, top);
    }
    if (top->kind == F_AUTOLINK) return scan_autolink_tail(s, x, top);
  }
  int32_t c = la(x);
  if (s->flags & F_IN_ROW) {
    if (c == '|') {
      if (s->n_frames) return force_close_top(s, x);
      if (s->flags & F_AFTER_PIPE) {
        s->flags &= (uint8_t)~F_AFTER_PIPE;
        return emit(x, EMPTY_CELL);
      }
      adv(x);
      mark(x);
      s->flags |= F_AFTER_PIPE;
      s->prev_class = CL_WS;
      return emit(x, PIPE);
    }
    s->flags &= (uint8_t)~F_AFTER_PIPE;
  }
  switch (c) {
    case '`':
      return scan_backtick_open(s, x);
    case '*':
    case '_':
      return scan_delim_run(s, x, c);
    case '[':
      return scan_bracket_open(s, x, false);
    case '!':
      adv(x);
      if (la(x) == '[') return scan_bracket_open(s, x, true);
      s->prev_class = CL_PUNCT;
      return text_run(s, x, true);
    case ']':
      return scan_bracket_close(s, x);
    case '<':
      return scan_angle(s, x);
    case '#':
      /* a closing sequence: after a space (or nothing), then only spaces */
      if (s->leaf == L_ATX && s->prev_class == CL_WS) {
        bool frames = s->n_frames > 0;
        while (la(x) == '#') adv(x);
        if (!frames) mark(x);
        while (is_ws(la(x))) adv(x);
        if (at_eol(x)) {
          /* close what is open first, at the `#` (still the mark) */
          if (frames) return force_close_top(s, x);
          note_trailing_after_loop(&s->flags, x);
          return emit(x, ATX_CLOSING);
        }
        s->prev_class = CL_WS;
        return text_run(s, x, true);
      }
      break;
    default:
      break;
  }
  return text_run(s, x, false);
}

/* ---------------------------------------------------------------------- */
/* Blocks                                                                 */

static bool start_paragraph(Scanner *s, Ctx *x) {
  s->leaf = L_PARAGRAPH;
  s->line_state = LS_IN_LINE;
  s->prev_class = CL_WS;
  return scan_inline(s, x);
}

/* Consumes whitespace after a container marker; returns its width in
 * columns (from column `col`). */
static unsigned marker_space(Ctx *x, unsigned col) {
  unsigned start = col;
  while (is_ws(la(x))) {
    col = la(x) == '\t' ? tab_col(col) : col + 1;
    adv(x);
  }
  return col - start;
}

/* Acts on a classified block start (lexer at its first character). */
static bool act_block(Scanner *s, Ctx *x, uint8_t kind) {
  switch (kind) {
    case PK_QUOTE: {
      adv(x);
      unsigned w = marker_space(x, s->line_indent + 1);
      s->containers[s->n_containers++] = (Container){C_QUOTE, 0};
      s->line_indent = (uint8_t)(w > 0 ? (w - 1 > 255 ? 255 : w - 1) : 0);
      mark(x);
      s->line_state = LS_AFTER_PREFIX;
      s->prev_class = CL_WS;
      return emit(x, BQ_START);
    }
    case PK_BULLET:
    case PK_ORDERED: {
      unsigned width = 0;
      if (kind == PK_BULLET) {
        adv(x);
        width = 1;
      } else {
        while (is_digit(la(x))) {
          adv(x);
          width++;
        }
        adv(x);
        width++;
      }
      unsigned before = s->line_indent;
      unsigned w = marker_space(x, before + width);
      unsigned indent, rest;
      if (at_eol(x) || w == 0) {
        indent = before + width + 1;
        rest = 0;
      } else if (w >= 5) {
        indent = before + width + 1;
        rest = w - 1;
      } else {
        indent = before + width + w;
        rest = 0;
      }
      s->containers[s->n_containers++] = (Container){C_ITEM, (uint8_t)(indent > 255 ? 255 : indent)};
      s->line_indent = (uint8_t)(rest > 255 ? 255 : rest);
      mark(x);
      s->line_state = LS_AFTER_PREFIX;
      s->prev_class = CL_WS;
      return emit(x, LIST_MARKER);
    }
    case PK_ATX: {
      unsigned k = 0;
      while (la(x) == '#' && k < 6) {
        adv(x);
        k++;
      }
      mark(x);
      s->leaf = L_ATX;
      s->line_state = LS_IN_LINE;
      s->prev_class = CL_WS;
      note_trailing(&s->flags, x);
      return emit(x, (enum TokenType)(ATX1 + k - 1));
    }
    case PK_FENCE: {
      int32_t c = la(x);
      unsigned k = 0;
      while (la(x) == c) {
        adv(x);
        k++;
      }
      mark(x);
      s->leaf = L_FENCE_INFO;
      s->leaf_a = (uint8_t)c;
      s->leaf_b = (uint8_t)(k > 255 ? 255 : k);
      s->line_state = LS_IN_LINE;
      note_trailing(&s->flags, x);
      return emit(x, FENCE_DELIM);
    }
    case PK_THEMATIC:
      while (!at_eol(x)) {
        bool ws = is_ws(la(x));
        adv(x);
        if (!ws) mark(x);
      }
      s->line_state = LS_IN_LINE;
      note_trailing_after_loop(&s->flags, x);
      return emit(x, THEMATIC_BREAK);
    case PK_HTML_BLOCK:
      scan_comment_open(x);
      scan_comment_body(s, x);
      mark(x);
      s->line_state = LS_IN_LINE;
      note_trailing(&s->flags, x);
      return emit(x, HTML_COMMENT_BLOCK);
    case PK_REFDEF:
      adv(x);
      while (!at_eol(x) && la(x) != ']') {
        int32_t c = la(x);
        adv(x);
        if (c == '\\' && is_ascii_punct(la(x))) adv(x);
      }
      if (la(x) == ']') adv(x);
      mark(x);
      s->leaf = L_REFDEF;
      s->leaf_a = R_COLON;
      s->line_state = LS_IN_LINE;
      return emit(x, LINK_LABEL);
    default:
      return start_paragraph(s, x);
  }
}

/* Indented code: this line and the following indented ones (blank lines
 * between them included), as one token. */
static bool scan_indented_code(Scanner *s, Ctx *x) {
  unsigned n = s->n_containers;
  for (;;) {
    while (!at_eol(x)) {
      bool ws = is_ws(la(x));
      adv(x);
      if (!ws) mark(x);
    }
    bool more = false;
    while (!at_eof(x)) {
      consume_newline(x);
      if (at_eof(x)) break;
      LineMatch m = match_line(s, x, n);
      if (m.matched < n) break;
      if (m.blank) continue;
      more = m.indent >= 4;
      break;
    }
    if (!more) break;
  }
  s->line_state = LS_IN_LINE;
  if (at_eol(x) && x->pos > x->mark) s->flags |= F_TRAILING;
  return emit(x, INDENTED_CODE);
}

/* At the start of a block (after the line prefix, leaf NONE). */
static bool block_start(Scanner *s, Ctx *x) {
  mark(x);
  uint8_t kind = s->pending;
  if (kind >= PK_TEXT && kind <= PK_TABLE) {
    s->pending = PK_NONE;
    return act_block(s, x, kind);
  }
  if (s->line_indent >= 4) return scan_indented_code(s, x);
  int32_t c = la(x);
  uint32_t p0 = x->pos;
  if (!is_block_start_char(c)) {
    /* a paragraph, unless a table without a leading pipe starts here */
    kind = table_start_valid(s, x) ? PK_TABLE : PK_TEXT;
  } else {
    kind = classify_block(s, x);
  }
  if (kind == PK_TABLE) {
    s->leaf = L_TABLE_HEADER;
    s->flags |= F_IN_ROW;
    s->flags &= (uint8_t)~F_AFTER_PIPE;
    s->line_state = LS_IN_LINE;
    s->prev_class = CL_WS;
    return emit(x, TABLE_START);
  }
  if (kind == PK_TEXT && x->pos == p0) return start_paragraph(s, x);
  s->pending = kind;
  return emit(x, DECISION);
}

/* Closing fence: the fence character, at least as many, then spaces. */
static bool is_closing_fence(Scanner *s, Ctx *x) {
  if (la(x) != s->leaf_a) return false;
  unsigned k = 0;
  while (la(x) == s->leaf_a) {
    adv(x);
    k++;
  }
  if (k < s->leaf_b) return false;
  while (is_ws(la(x))) adv(x);
  return at_eol(x);
}

static bool handle_after_prefix(Scanner *s, Ctx *x) {
  if (s->pending == PK_SETEXT1 || s->pending == PK_SETEXT2) {
    uint8_t which = s->pending;
    s->pending = PK_NONE;
    int32_t c = la(x);
    mark(x);
    while (la(x) == c) {
      adv(x);
      mark(x);
    }
    s->leaf = L_NONE;
    s->line_state = LS_IN_LINE;
    note_trailing(&s->flags, x);
    return emit(x, which == PK_SETEXT1 ? SETEXT1 : SETEXT2);
  }
  if (at_eol(x)) return handle_eol(s, x);
  switch (s->leaf) {
    case L_PARAGRAPH:
      s->line_state = LS_IN_LINE;
      return scan_inline(s, x);
    case L_FENCE_BODY: {
      mark(x);
      int32_t c = la(x);
      while (la(x) == c) adv(x);
      mark(x);
      s->leaf = L_NONE;
      s->flags &= (uint8_t)~F_FENCE_CLOSING_NEXT;
      s->line_state = LS_IN_LINE;
      note_trailing(&s->flags, x);
      return emit(x, FENCE_DELIM);
    }
    case L_TABLE_DELIM:
      mark(x);
      while (!at_eol(x)) {
        bool ws = is_ws(la(x));
        adv(x);
        if (!ws) mark(x);
      }
      s->leaf = L_TABLE_BODY;
      s->line_state = LS_IN_LINE;
      note_trailing_after_loop(&s->flags, x);
      return emit(x, TABLE_DELIM_ROW);
    case L_TABLE_BODY:
      s->flags |= F_IN_ROW;
      s->flags &= (uint8_t)~F_AFTER_PIPE;
      s->line_state = LS_IN_LINE;
      s->prev_class = CL_WS;
      return scan_inline(s, x);
    default:
      return block_start(s, x);
  }
}

static bool handle_line_start(Scanner *s, Ctx *x) {
  mark(x);
  unsigned n = s->n_containers;
  if (s->leaf == L_FENCE_BODY && !(s->flags & F_FENCE_CLOSING_NEXT)) {
    LineMatch m = match_line(s, x, n);
    if (m.matched < n) {
      s->leaf = L_NONE;
      return emit(x, BLOCK_CLOSE);
    }
    if (at_eof(x)) {
      /* the file ends inside the fence */
      s->line_state = LS_AFTER_PREFIX;
      s->line_indent = m.indent;
      return handle_after_prefix(s, x);
    }
    if (!m.blank && m.indent < 4 && is_closing_fence(s, x)) {
      s->flags |= F_FENCE_CLOSING_NEXT;
      return emit(x, DECISION);
    }
    for (;;) {
      skip_to_eol(x);
      if (at_eof(x)) {
        mark(x);
        break;
      }
      consume_newline(x);
      mark(x);
      if (at_eof(x)) break;
      LineMatch mm = match_line(s, x, n);
      if (mm.matched < n) break;
      if (!mm.blank && mm.indent < 4 && is_closing_fence(s, x)) break;
    }
    return emit(x, CODE_CONTENT);
  }
  LineMatch m = match_line(s, x, n);
  if (m.matched < n && s->leaf != L_PARAGRAPH) {
    if (s->n_frames) return force_close_top(s, x);
    if (s->leaf != L_NONE) {
      s->leaf = L_NONE;
      s->flags &= (uint8_t)~(F_IN_ROW | F_AFTER_PIPE | F_FENCE_CLOSING_NEXT);
      return emit(x, BLOCK_CLOSE);
    }
    s->n_containers--;
    return emit(x, BLOCK_CLOSE);
  }
  s->line_indent = m.indent;
  s->line_state = LS_AFTER_PREFIX;
  s->prev_class = CL_WS;
  if (m.consumed) {
    mark(x);
    return emit(x, LINE_PREFIX);
  }
  return handle_after_prefix(s, x);
}

/* ---------------------------------------------------------------------- */
/* Frontmatter (same rules as skein-syntax's `locate_frontmatter`)         */

/* At a line start: `---` (or, when closing, `...`) then spaces or tabs to
 * the end of the line (LF, CRLF or the end of the file). Lines end at LF
 * only; one CR before it is part of the line break. */
static bool fm_delimiter_line(Ctx *x, bool closing) {
  int32_t c = la(x);
  if (c != '-' && !(closing && c == '.')) return false;
  for (int i = 0; i < 3; i++) {
    if (la(x) != c) return false;
    adv(x);
  }
  while (is_ws(la(x))) adv(x);
  if (at_eof(x) || la(x) == '\n') return true;
  if (la(x) == '\r') {
    adv(x);
    return at_eof(x) || la(x) == '\n';
  }
  return false;
}

/* Moves past the next LF (or to the end of the file). */
static void fm_next_line(Ctx *x) {
  while (!at_eof(x) && la(x) != '\n') adv(x);
  if (!at_eof(x)) adv(x);
}

static bool scan_document_start(Scanner *s, Ctx *x, bool *done) {
  s->flags |= F_STARTED;
  if (la(x) == 0xFEFF) skip(x);
  *done = true;
  if (la(x) != '-') {
    *done = false;
    return false;
  }
  mark(x);
  if (fm_delimiter_line(x, false)) {
    bool terminated = false;
    fm_next_line(x);
    while (!at_eof(x)) {
      if (fm_delimiter_line(x, true)) {
        terminated = true;
        break;
      }
      fm_next_line(x);
    }
    s->fm = terminated ? FS_OPEN_T : FS_OPEN_U;
    s->pending = PK_FM_OPEN;
  }
  return emit(x, DECISION);
}

static bool scan_frontmatter(Scanner *s, Ctx *x) {
  switch (s->fm) {
    case FS_OPEN_T:
    case FS_OPEN_U:
      adv(x);
      adv(x);
      adv(x);
      mark(x);
      s->pending = PK_NONE;
      s->fm = s->fm == FS_OPEN_T ? FS_AFTER_OPEN_T : FS_AFTER_OPEN_U;
      s->line_state = LS_IN_LINE;
      return emit(x, FM_DELIM);
    case FS_AFTER_OPEN_T:
    case FS_AFTER_OPEN_U:
      while (is_ws(la(x))) skip(x);
      if (at_eof(x)) {
        s->fm = FS_NONE;
        return false;
      }
      consume_newline(x);
      mark(x);
      s->fm = s->fm == FS_AFTER_OPEN_T ? FS_CONTENT : FS_NONE;
      s->line_state = LS_LINE_START;
      return emit(x, NEWLINE);
    case FS_CONTENT:
      mark(x);
      while (!at_eof(x)) {
        mark(x);
        if (fm_delimiter_line(x, true)) break;
        fm_next_line(x);
        if (at_eof(x)) mark(x);
      }
      s->fm = FS_CLOSE;
      return emit(x, FM_CONTENT);
    default: /* FS_CLOSE */
      adv(x);
      adv(x);
      adv(x);
      mark(x);
      s->fm = FS_NONE;
      s->leaf = L_NONE;
      s->line_state = LS_IN_LINE;
      return emit(x, FM_DELIM);
  }
}

/* ---------------------------------------------------------------------- */

static bool scan(Scanner *s, Ctx *x) {
  if (!(s->flags & F_STARTED)) {
    bool done = false;
    bool r = scan_document_start(s, x, &done);
    if (done) return r;
  }
  if (s->fm != FS_NONE) return scan_frontmatter(s, x);
  switch (s->line_state) {
    case LS_LINE_START:
      return handle_line_start(s, x);
    case LS_AFTER_PREFIX:
      /* line prefixes and container markers took the whitespace */
      return handle_after_prefix(s, x);
    default:
      return scan_inline(s, x);
  }
}

/* ---------------------------------------------------------------------- */
/* tree-sitter interface                                                  */

static void reset(Scanner *s) {
  memset(s, 0, sizeof(*s));
  s->budget = BUDGET_INIT;
}

void *tree_sitter_agentmd_external_scanner_create(void) {
  Scanner *s = (Scanner *)ts_malloc(sizeof(Scanner));
  reset(s);
  return s;
}

void tree_sitter_agentmd_external_scanner_destroy(void *payload) { ts_free(payload); }

unsigned tree_sitter_agentmd_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *s = (Scanner *)payload;
  unsigned i = 0;
  buffer[i++] = (char)s->flags;
  buffer[i++] = (char)s->line_state;
  buffer[i++] = (char)s->fm;
  buffer[i++] = (char)s->leaf;
  buffer[i++] = (char)s->leaf_a;
  buffer[i++] = (char)s->leaf_b;
  buffer[i++] = (char)s->line_indent;
  buffer[i++] = (char)s->pending;
  buffer[i++] = (char)s->pending_run;
  buffer[i++] = (char)s->eol_keep;
  buffer[i++] = (char)s->prev_class;
  buffer[i++] = (char)(s->budget & 0xff);
  buffer[i++] = (char)(s->budget >> 8);
  buffer[i++] = (char)s->n_containers;
  buffer[i++] = (char)s->n_frames;
  for (unsigned k = 0; k < s->n_containers; k++) {
    buffer[i++] = (char)s->containers[k].kind;
    buffer[i++] = (char)s->containers[k].indent;
  }
  for (unsigned k = 0; k < s->n_frames; k++) {
    buffer[i++] = (char)s->frames[k].kind;
    buffer[i++] = (char)s->frames[k].a;
    buffer[i++] = (char)s->frames[k].b;
  }
  return i;
}

void tree_sitter_agentmd_external_scanner_deserialize(void *payload, const char *buffer,
                                                     unsigned length) {
  Scanner *s = (Scanner *)payload;
  reset(s);
  if (length < HEADER_SIZE) return;
  const uint8_t *b = (const uint8_t *)buffer;
  unsigned i = 0;
  s->flags = b[i++];
  s->line_state = b[i++];
  s->fm = b[i++];
  s->leaf = b[i++];
  s->leaf_a = b[i++];
  s->leaf_b = b[i++];
  s->line_indent = b[i++];
  s->pending = b[i++];
  s->pending_run = b[i++];
  s->eol_keep = b[i++];
  s->prev_class = b[i++];
  s->budget = (uint16_t)(b[i] | (b[i + 1] << 8));
  i += 2;
  uint8_t nc = b[i++];
  uint8_t nf = b[i++];
  if (nc > MAX_CONTAINERS || nf > MAX_FRAMES || length < HEADER_SIZE + 2u * nc + 3u * nf) {
    reset(s);
    return;
  }
  s->n_containers = nc;
  s->n_frames = nf;
  for (unsigned k = 0; k < nc; k++) {
    s->containers[k].kind = b[i++];
    s->containers[k].indent = b[i++];
  }
  for (unsigned k = 0; k < nf; k++) {
    s->frames[k].kind = b[i++];
    s->frames[k].a = b[i++];
    s->frames[k].b = b[i++];
  }
}

bool tree_sitter_agentmd_external_scanner_scan(void *payload, TSLexer *lexer,
                                              const bool *valid_symbols) {
  Scanner *s = (Scanner *)payload;
  Ctx x = {lexer, 0, 0, 0, false, 0, 0};
  bool ok = scan(s, &x);
  if (!ok) return false;
  uint32_t width = x.mark > x.skipped ? x.mark - x.skipped : 0;
  /* During error recovery every symbol is valid; never offer an empty
   * token there (it could not make progress). */
  if (valid_symbols[ERROR_SENTINEL] && width == 0) return false;
  uint32_t budget = (uint32_t)s->budget + width / 4;
  s->budget = (uint16_t)(budget > BUDGET_MAX ? BUDGET_MAX : budget);
  return true;
}
