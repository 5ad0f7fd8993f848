//! `partialFingerprints.primaryLocationLineHash`, computed the way GitHub's
//! `github/codeql-action` computes it when it uploads a SARIF file without one
//! (its `src/fingerprints.ts`, function `hash`), so code scanning matches
//! skein's alerts across commits whether or not the action fills them in (the
//! action keeps a fingerprint that is present and only warns when its own
//! value differs; with this module they agree).
//!
//! The algorithm, as the action runs it:
//!
//! - The file is read as UTF-8 and walked in **UTF-16 code units** (JavaScript
//!   `charCodeAt`). Spaces and tabs are skipped, `\r\n` and a lone `\r` both
//!   count as one `\n` (so line numbers here count a lone `\r` as a break).
//!   After the last unit one end marker, 65535, is fed.
//! - A rolling polynomial hash over the last 100 fed units,
//!   `h = 37·h + c − 37¹⁰⁰·c₋₁₀₀`, in wrapping 64-bit arithmetic.
//! - The hash of a line is the value once the 100 units that start at the
//!   line's first non-blank unit have been fed (the window runs on into the
//!   following lines; the end is padded with zeros), printed as unsigned
//!   lowercase hex without leading zeros.
//! - `:n` is appended, where `n` counts how many lines so far (in file order)
//!   had the same hash value, so identical stretches stay distinct.
//!
//! The test vectors in `tests/fingerprint.rs` come from running that
//! algorithm with node on the same inputs.

use std::collections::HashMap;

const BLOCK_SIZE: usize = 100;
const MOD: u64 = 37;
const EOF: u16 = 65535;

/// Line hashes of one file: `hashes()[i]` is the fingerprint of line `i + 1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineHashes {
    hashes: Vec<String>,
}

impl LineHashes {
    /// Hashes every line of `text` (the file's contents decoded as UTF-8).
    pub fn new(text: &str) -> Self {
        let mut h = Hasher::new();
        for unit in text.encode_utf16() {
            h.feed(unit);
        }
        h.feed(EOF);
        for _ in 0..BLOCK_SIZE {
            if h.line_numbers[h.index] != 0 {
                h.output();
            }
            h.update(0);
        }
        LineHashes { hashes: h.out }
    }

    /// The fingerprint of 1-based `line`, e.g. `"c129715d7a2bc9a3:1"`; `None`
    /// past the end (a line as the action counts them: `\n`, `\r\n` or `\r`).
    pub fn line(&self, line: u32) -> Option<&str> {
        let i = (line as usize).checked_sub(1)?;
        self.hashes.get(i).map(String::as_str)
    }

    /// Every line's fingerprint, in line order.
    pub fn hashes(&self) -> &[String] {
        &self.hashes
    }
}

struct Hasher {
    window: [u16; BLOCK_SIZE],
    /// 1-based line number that starts at this window slot, 0 for none.
    line_numbers: [u32; BLOCK_SIZE],
    hash: u64,
    first_mod: u64,
    index: usize,
    line_number: u32,
    line_start: bool,
    prev_cr: bool,
    counts: HashMap<u64, u32>,
    out: Vec<String>,
}

impl Hasher {
    fn new() -> Self {
        let first_mod = (0..BLOCK_SIZE).fold(1u64, |m, _| m.wrapping_mul(MOD));
        Hasher {
            window: [0; BLOCK_SIZE],
            line_numbers: [0; BLOCK_SIZE],
            hash: 0,
            first_mod,
            index: 0,
            line_number: 0,
            line_start: true,
            prev_cr: false,
            counts: HashMap::new(),
            out: Vec::new(),
        }
    }

    fn output(&mut self) {
        let n = self.counts.entry(self.hash).or_insert(0);
        *n += 1;
        // Lines are completed in order, so the output index is the line - 1.
        debug_assert_eq!(self.line_numbers[self.index] as usize, self.out.len() + 1);
        self.out.push(format!("{:x}:{}", self.hash, n));
        self.line_numbers[self.index] = 0;
    }

    fn update(&mut self, current: u16) {
        let begin = self.window[self.index];
        self.window[self.index] = current;
        self.hash = MOD
            .wrapping_mul(self.hash)
            .wrapping_add(u64::from(current))
            .wrapping_sub(self.first_mod.wrapping_mul(u64::from(begin)));
        self.index = (self.index + 1) % BLOCK_SIZE;
    }

    fn feed(&mut self, unit: u16) {
        const TAB: u16 = b'\t' as u16;
        const SPACE: u16 = b' ' as u16;
        const LF: u16 = b'\n' as u16;
        const CR: u16 = b'\r' as u16;
        let mut current = unit;
        if current == SPACE || current == TAB || (self.prev_cr && current == LF) {
            self.prev_cr = false;
            return;
        }
        if current == CR {
            current = LF;
            self.prev_cr = true;
        } else {
            self.prev_cr = false;
        }
        if self.line_numbers[self.index] != 0 {
            self.output();
        }
        if self.line_start {
            self.line_start = false;
            self.line_number += 1;
            self.line_numbers[self.index] = self.line_number;
        }
        if current == LF {
            self.line_start = true;
        }
        self.update(current);
    }
}

#[cfg(test)]
mod tests {
    use super::LineHashes;

    #[test]
    fn empty_file_has_one_line() {
        let h = LineHashes::new("");
        assert_eq!(h.hashes(), ["c129715d7a2bc9a3:1"]);
        assert_eq!(h.line(1), Some("c129715d7a2bc9a3:1"));
        assert_eq!(h.line(0), None);
        assert_eq!(h.line(2), None);
    }
}
