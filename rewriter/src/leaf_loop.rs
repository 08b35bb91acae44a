//! Which probed loops are *leaves* in C simulation: loops whose runs need no begin and end
//! record each (hls-lib `HLSINSTR_LEAF_BEGIN`/`HLSINSTR_LEAF_END`: a run's trips are stored
//! inline and written with the loop's next runs as one record; docs/probes.md). The test is on
//! the loop's text, so it only has to be cheap and usually right: a loop that calls a probed
//! function anyway (through an operator, a constructor, a macro) is turned into an ordinary loop
//! by the runtime when the first record comes while it runs, and the report is the same.

/// Keywords followed by `(` that call nothing.
const NOT_CALLS: &[&str] = &[
    "if",
    "while",
    "for",
    "switch",
    "sizeof",
    "alignof",
    "_Alignof",
    "decltype",
    "noexcept",
    "static_assert",
    "defined",
];

/// Words that leave the loop other than through its end, or may run code of their own: a loop
/// holding one is not a leaf (the runtime would still close it right, but these are rare in
/// inner loops and not worth the reasoning).
const DISQUALIFY: &[&str] =
    &["return", "goto", "throw", "co_return", "co_await", "co_yield", "new", "delete", "asm", "__asm__", "operator"];

/// True when the loop's whole text (`for (...) body`, with its label) holds no call-like `(`
/// (after a name other than [`NOT_CALLS`], or after `)`, `]`, `>` or `}`) and none of
/// [`DISQUALIFY`]. Comments, string and character literals and preprocessor lines are skipped.
/// The caller checks that no loop is nested in it.
pub fn is_leaf(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    // The last token before the current position: a word, or a punctuation byte.
    let mut last_word: Option<&str> = None;
    let mut last_punct: u8 = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // A preprocessor line (a pragma), continued by backslashes.
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] == b'\n' {
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        line_start = false;
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i += 2;
            continue;
        }
        if c == b'"' || c == b'\'' {
            // A raw string could hide its quote; one in a loop is no leaf we need.
            if last_word.is_some_and(|w| w.ends_with('R')) {
                return false;
            }
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            last_word = None;
            last_punct = c;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            if DISQUALIFY.contains(&word) {
                return false;
            }
            // A number (`1e5`, `0x1f`) is no name.
            last_word = (!c.is_ascii_digit()).then_some(word);
            last_punct = 0;
            continue;
        }
        if c == b'(' {
            let call = match last_word {
                Some(w) => !NOT_CALLS.contains(&w),
                None => matches!(last_punct, b')' | b']' | b'>' | b'}'),
            };
            if call {
                return false;
            }
        }
        last_word = None;
        last_punct = c;
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::is_leaf;

    #[test]
    fn plain_arithmetic_and_control_is_a_leaf() {
        assert!(is_leaf("for (int j = i + 1; j < 25; ++j) { if (buf[j] < buf[i]) { t = buf[i]; buf[i] = buf[j]; } }"));
        assert!(is_leaf(
            "label: for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE II=1\n s += (a[i] * (int)b[i]); }"
        ));
        assert!(is_leaf("while (k > 0) { if (x) break; else continue; k -= sizeof(int); }"));
        assert!(is_leaf("for (;;) { s += 1e5; /* f(x) */ // g(y)\n c = '('; p = \"h(\"; if (s) break; }"));
    }

    #[test]
    fn calls_jumps_and_allocation_are_not() {
        assert!(!is_leaf("for (int i = 0; i < n; i++) s += f(i);"));
        assert!(!is_leaf("for (int i = 0; i < n(); i++) s += i;"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) s += std::min<int>(a, b);"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) s += static_cast<int>(x);"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) s += t[i](x);"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) s += (p)(x);"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) [&] { s += i; }();"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) if (a[i] == k) return i;"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) if (a[i] == k) goto done;"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) if (a[i] < 0) throw 1;"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) p[i] = new int;"));
        assert!(!is_leaf("for (int i = 0; i < n; i++) { Acc a(3); s += a.v; }"));
    }
}
