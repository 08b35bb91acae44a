//! Includes pinned to the author's Vivado/Vitis installation. Projects written on one machine
//! sometimes name a tool header by its absolute path there
//! (`#include "/home/<user>/Xilinx/Vivado/2019.1/include/ap_int.h"`: the public
//! mzrghorbani/lr_hls_dev, Vivado HLS 2019.1), which no other machine has. The copy the C
//! simulation compiles reads such a header from the include path instead (`<ap_int.h>`), where
//! `--hls-include` puts the tool's headers: the same file the author's tool read, found the way
//! every other project finds it. An absolute path that exists is left alone.

use std::borrow::Cow;
use std::path::Path;

/// The directory of an installation's headers, in an absolute include's path.
const INCLUDE_DIR: &str = "/include/";

/// `text` with every `#include` of an absolute path that does not exist and lies below an
/// `include` directory replaced by an angled include of its path below that directory (the last
/// `include` of the path: `.../include/etc/ap_utils.h` is `<etc/ap_utils.h>`). The line count
/// and every other byte are kept, so the line map of an instrumented file still holds.
pub fn unpin(text: &[u8]) -> Cow<'_, [u8]> {
    unpin_with(text, |p| Path::new(p).exists())
}

/// [`unpin`] with the existence test given (tests).
fn unpin_with(text: &[u8], exists: impl Fn(&str) -> bool) -> Cow<'_, [u8]> {
    let Ok(s) = std::str::from_utf8(text) else { return Cow::Borrowed(text) };
    let mut out = String::with_capacity(s.len());
    let mut changed = false;
    for line in s.split_inclusive('\n') {
        match relative_include(line, &exists) {
            Some(fixed) => {
                out.push_str(&fixed);
                changed = true;
            }
            None => out.push_str(line),
        }
    }
    if changed {
        Cow::Owned(out.into_bytes())
    } else {
        Cow::Borrowed(text)
    }
}

/// The line with its pinned include made relative, `None` when it has none.
fn relative_include(line: &str, exists: &impl Fn(&str) -> bool) -> Option<String> {
    let hash = line.find('#')?;
    if !line[..hash].trim().is_empty() {
        return None;
    }
    let after = line[hash + 1..].trim_start().strip_prefix("include")?;
    let name_at = line.len() - after.trim_start().len();
    let close = match line[name_at..].chars().next()? {
        '"' => '"',
        '<' => '>',
        _ => return None,
    };
    let end = name_at + 1 + line[name_at + 1..].find(close)?;
    let name = &line[name_at + 1..end];
    if !name.starts_with('/') || exists(name) {
        return None;
    }
    let tail = &name[name.rfind(INCLUDE_DIR)? + INCLUDE_DIR.len()..];
    if tail.is_empty() {
        return None;
    }
    Some(format!("{}<{tail}>{}", &line[..name_at], &line[end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(text: &str) -> String {
        String::from_utf8(unpin_with(text.as_bytes(), |_| false).into_owned()).unwrap()
    }

    #[test]
    fn a_pinned_tool_header_is_read_from_the_include_path() {
        let t = "#include \"/home/u/Xilinx/Vivado/2019.1/include/ap_int.h\"\n#define N 3\n";
        assert_eq!(fix(t), "#include <ap_int.h>\n#define N 3\n");
        let t = "  #  include </opt/Xilinx/Vitis_HLS/2023.2/include/etc/ap_utils.h> // x\r\n";
        assert_eq!(fix(t), "  #  include <etc/ap_utils.h> // x\r\n");
    }

    #[test]
    fn other_includes_are_kept() {
        let t = "#include \"ap_int.h\"\n#include <hls_stream.h>\n#include \"/home/u/proj/defs.h\"\n// #include \"/x/include/a.h\"\n";
        assert!(matches!(unpin_with(t.as_bytes(), |_| false), Cow::Borrowed(_)));
        // An absolute path that exists is the user's file.
        let t = "#include \"/opt/Xilinx/Vivado/2019.1/include/ap_int.h\"\n";
        assert!(matches!(unpin_with(t.as_bytes(), |_| true), Cow::Borrowed(_)));
    }
}
