//! Which files the kernel sources include are the design's own and are instrumented with them.
//!
//! HLS kernels often define their helpers (`static inline` functions, templates, the loops in
//! them) in a header of the project. Vitis synthesises them as part of the design, so their
//! modules and loops need probes as much as the listed sources': without them a loop in
//! `word.h` counts nothing and its caller's time is the default's guess. A header is the
//! kernel's when a synthesis source reaches it through `#include` as the compiler would find it
//! (beside the including file, then the project's `-I` directories: [`shadow::reached`]), and
//! it is none of these:
//! - a compiled unit of the run (a source or a testbench file: each is handled as such);
//! - a vendor header: below the kernel headers or hls-lib (never followed), below a directory
//!   laid out as a Vitis include tree (`ap_int.h` beside an `etc/` folder, wherever the project's
//!   `-I` points), or a project's own copy of one (a name the kernel headers or hls-lib have);
//! - a system header (below `/usr/`): a project's `-I/usr/include/...` is a library's, not the
//!   design's;
//! - not C/C++ text by its extension (`#include "weights.dat"` inside an initialiser).

use super::shadow;
use std::path::{Component, Path, PathBuf};

/// The files to instrument with the sources, in the order [`shadow::reached`] finds them.
/// `sources` and `units` are canonical paths; `dirs` the project's `-I` directories; `exclude`
/// the directories never followed (the kernel headers, hls-lib).
pub fn kernel_headers(
    sources: &[PathBuf],
    units: &[PathBuf],
    dirs: &[PathBuf],
    exclude: &[PathBuf],
    hls_include: &Path,
) -> Vec<PathBuf> {
    shadow::reached(sources, dirs, exclude)
        .into_iter()
        .filter(|h| !units.contains(h) && crate::source::is_cxx_path(h) && !is_vendor(h, hls_include))
        .collect()
}

/// A vendor or system header (see the module's list).
fn is_vendor(path: &Path, hls_include: &Path) -> bool {
    if path.starts_with("/usr") {
        return true;
    }
    let Some(name) = path.file_name() else { return true };
    let lib_has = crate::hls_lib::HLS_LIB.iter().any(|(rel, _)| Path::new(rel).file_name() == Some(name));
    if lib_has || hls_include.join(name).is_file() || hls_include.join("etc").join(name).is_file() {
        return true;
    }
    path.ancestors().skip(1).any(|d| d.join("ap_int.h").is_file() && d.join("etc").is_dir())
}

/// The manifest path of a header: relative to `root` (the sources' common directory), a step
/// up written `__parent__` as the rewrite writes it for sources.
pub fn rel_to(root: &Path, path: &Path) -> String {
    let root: Vec<Component> = root.components().collect();
    let file: Vec<Component> = path.components().collect();
    let common = root.iter().zip(&file).take_while(|(a, b)| a == b).count();
    let ups = root[common..].iter().filter(|c| matches!(c, Component::Normal(_))).map(|_| "__parent__".to_string());
    let downs = file[common..].iter().filter_map(|c| match c {
        Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
        _ => None,
    });
    ups.chain(downs).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn project_headers_are_the_kernels_and_vendor_ones_are_not() {
        let t = tempfile::tempdir().unwrap();
        let root = shadow::canonical(t.path());
        let (src, inc, vendor, hls) = (root.join("src"), root.join("inc"), root.join("xilinx"), root.join("hls"));
        write(&hls.join("ap_int.h"), "");
        write(&hls.join("hls_stream.h"), "");
        write(&vendor.join("ap_int.h"), "");
        write(&vendor.join("etc/ap_private.h"), "");
        write(&vendor.join("hls_extra.h"), "");
        write(&src.join("hls_stream.h"), "// a copy of the vendor's\n");
        write(&inc.join("util.h"), "#pragma once\n#include \"deep.h\"\n");
        write(&inc.join("deep.h"), "#include <hls_extra.h>\n#include \"weights.dat\"\n");
        write(&inc.join("weights.dat"), "1, 2, 3\n");
        write(&src.join("tb_only.h"), "");
        write(&src.join("k.cpp"), "#include <util.h>\n#include \"hls_stream.h\"\n#include <ap_int.h>\n");
        write(&src.join("tb.cpp"), "#include \"tb_only.h\"\n#include \"k.cpp\"\n");
        let sources = [src.join("k.cpp")];
        let units = [src.join("k.cpp"), src.join("tb.cpp")];
        let dirs = [src.clone(), inc.clone(), vendor.clone()];
        let got = kernel_headers(&sources, &units, &dirs, std::slice::from_ref(&hls), &hls);
        assert_eq!(got, vec![inc.join("util.h"), inc.join("deep.h")]);
    }

    #[test]
    fn manifest_paths_step_up_from_the_sources() {
        assert_eq!(rel_to(Path::new("/p/src"), Path::new("/p/src/a/x.h")), "a/x.h");
        assert_eq!(rel_to(Path::new("/p/src"), Path::new("/p/inc/x.h")), "__parent__/inc/x.h");
    }
}
