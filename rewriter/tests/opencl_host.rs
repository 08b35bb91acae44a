//! The host side of OpenCL C kernels: the OpenCL 1.2 C API over the CPU emulation
//! (opencl-lib/emu/hlsinstr_emu_cl.cpp) runs an ordinary host, with kernels on two queues running
//! at the same time; the `hlsinstr_ocl_host.h` that `rewrite` generates compiles warning-free as
//! C++11, profiles the matrix-vector kernels through that API and writes the binary dump of the
//! spec (checked byte by byte here with a reader of its own), and reports a program without the
//! iBuffer host interface; the header never replaces a user's file and `strip` leaves it out.
//! Needs g++, clang++, python3, bash and the Khronos headers (opencl-c-headers); a missing tool
//! fails the test.

use hlsinstr::emit::manifest::{hw_key, Manifest};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::repo;

fn lib(file: &str) -> PathBuf {
    repo().join("opencl-lib").join(file)
}

fn run(cmd: &mut Command) -> Output {
    let tool = cmd.get_program().to_string_lossy().into_owned();
    cmd.output().unwrap_or_else(|e| panic!("cannot run {tool}: {e}; install it (apt-get install {tool}) and run again"))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn passed(out: &Output) -> bool {
    let t = text(out);
    out.status.success() && t.lines().any(|l| l.trim() == "PASS") && !t.contains("ERROR")
}

/// The Khronos headers must be installed: the CL layer is built only when they are.
fn require_cl_headers() {
    assert!(
        Path::new("/usr/include/CL/cl.h").is_file(),
        "CL/cl.h not found: install the Khronos OpenCL headers (apt-get install opencl-c-headers) and run again"
    );
}

/// hlsinstr-emu-build of `cl` with `host`, extra `-D`/`-I` options first.
fn emu_build(cl: &Path, host: &Path, options: &[&str], work: &Path) -> PathBuf {
    require_cl_headers();
    let exe = work.join("exe");
    let out = run(Command::new("bash")
        .arg(lib("emu/hlsinstr-emu-build"))
        .args(options)
        .arg("-o")
        .arg(&exe)
        .arg("--work")
        .arg(work.join("build"))
        .arg(cl)
        .arg(host));
    assert!(out.status.success(), "hlsinstr-emu-build {}:\n{}", host.display(), text(&out));
    exe
}

fn run_emulation(exe: &Path, deadlock_ms: &str) -> Output {
    run(Command::new("timeout").arg("120").arg(exe).env("HLSINSTR_EMU_DEADLOCK_MS", deadlock_ms))
}

#[test]
fn opencl_c_api_layer_runs_an_ordinary_host_and_queues_run_concurrently() {
    let work = tempfile::tempdir().unwrap();
    let exe = emu_build(&lib("tests/clapi.cl"), &lib("tests/clapi_host.cpp"), &[], work.path());
    let out = run_emulation(&exe, "5000");
    let t = text(&out);
    assert!(passed(&out), "{t}");
    assert!(t.contains("device: hlsinstr emulation"), "{t}");
    assert!(
        t.contains(
            "hlsinstr emulate: clGetContextInfo is not supported by the emulated OpenCL API \
             (opencl-lib/emu/hlsinstr_emu_cl.cpp); it returns CL_INVALID_OPERATION"
        ),
        "{t}"
    );
    assert!(
        t.contains(
            "clCreateKernel: the emulated program has no host-launchable kernel named no_such_kernel \
             (CL_INVALID_KERNEL_NAME); it has: consumer, producer, scale"
        ),
        "{t}"
    );
    assert!(t.contains("clSetKernelArg: kernel scale argument 3: 8 bytes passed, the parameter has 4"), "{t}");

    // The same host with the consumer on the producer's queue: 100 values cannot pass a channel
    // of depth 2 when one queue runs the two kernels one after the other.
    let host = std::fs::read_to_string(lib("tests/clapi_host.cpp")).unwrap();
    let from = "clEnqueueTask(q2, consumer";
    assert!(host.contains(from), "`{from}` is no longer in clapi_host.cpp");
    let one_queue = work.path().join("one_queue.cpp");
    std::fs::write(&one_queue, host.replacen(from, "clEnqueueTask(q1, consumer", 1)).unwrap();
    let work2 = tempfile::tempdir().unwrap();
    let exe = emu_build(&lib("tests/clapi.cl"), &one_queue, &[], work2.path());
    let out = run_emulation(&exe, "300");
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "one in-order queue must deadlock:\n{t}");
    assert!(t.contains("kernel consumer") || t.contains("kernel producer"), "{t}");
}

/// `hlsinstr rewrite --probes modules,loops,seq` of the mxv kernels into `dir`.
fn rewrite_mxv(dir: &Path) -> Manifest {
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", "modules,loops,seq", "--out"])
        .arg(dir)
        .arg(repo().join("examples/opencl/mxv/kernels")));
    assert!(out.status.success(), "hlsinstr rewrite:\n{}", text(&out));
    assert!(text(&out).contains("OpenCL host helper hlsinstr_ocl_host.h for 5 iBuffer units"), "{}", text(&out));
    serde_json::from_str(&std::fs::read_to_string(dir.join("hlsinstr-manifest.json")).unwrap()).unwrap()
}

/// One record of a dump.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Record {
    kind: u32,
    unit: u32,
    time: u64,
    addr: u64,
    value: i64,
}

/// The binary dump (spec: magic, version, N, key, reserved, then per unit its HEADER and the
/// records it announces), read strictly: every unit's header names the unit and the file ends
/// with the last unit's records.
fn read_dump(bytes: &[u8]) -> (u32, u32, u64, Vec<Vec<Record>>) {
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    assert!(bytes.len() >= 32, "dump shorter than its header: {} bytes", bytes.len());
    assert_eq!(&bytes[0..8], b"HLSIOCL1", "magic");
    let (version, n, key) = (u32_at(8), u32_at(12), u64_at(16));
    assert_eq!(u64_at(24), 0, "reserved");
    let mut at = 32;
    let mut units = Vec::new();
    for u in 0..n {
        let mut records = Vec::new();
        loop {
            assert!(at + 32 <= bytes.len(), "unit {u}: dump truncated at byte {at}");
            let r = Record {
                kind: u32_at(at),
                unit: u32_at(at + 4),
                time: u64_at(at + 8),
                addr: u64_at(at + 16),
                value: u64_at(at + 24) as i64,
            };
            at += 32;
            if records.is_empty() {
                assert_eq!((r.kind, r.unit), (15, u), "unit {u}: header");
            } else {
                assert_eq!(r.unit, u, "unit {u}: record of another unit: {r:?}");
            }
            records.push(r);
            if records.len() as i64 == 1 + records[0].value {
                break;
            }
        }
        units.push(records);
    }
    assert_eq!(at, bytes.len(), "bytes after the last unit");
    (version, n, key, units)
}

/// (begins, ends, trips of each end) of a unit's probe records (hlsinstr_probe.cl: trips bits
/// 0..31, end bit 32).
fn begins_ends(records: &[Record]) -> (usize, usize, Vec<u64>) {
    let mut b = 0;
    let mut trips = Vec::new();
    for r in &records[1..] {
        assert_eq!(r.kind, 0, "not a snapshot record: {r:?}");
        let v = r.value as u64;
        if (v >> 32) & 1 == 1 {
            trips.push(v & 0xffff_ffff);
        } else {
            b += 1;
        }
    }
    (b, trips.len(), trips)
}

#[test]
fn generated_host_helper_profiles_mxv_through_the_opencl_c_api_and_writes_the_spec_dump() {
    require_cl_headers();
    let work = tempfile::tempdir().unwrap();
    let instr = work.path().join("instr");
    let manifest = rewrite_mxv(&instr);
    assert_eq!(manifest.generated, ["hlsinstr_ocl_host.h"]);
    let names: Vec<String> = manifest.probes.iter().map(|p| format!("{} {}", p.kind, p.name)).collect();
    assert_eq!(
        names,
        ["function dot", "loop VITIS_LOOP_7_1", "function mxv_single", "loop VITIS_LOOP_16_1", "function mxv_ndrange"]
    );
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .arg("emulate")
        .arg(&instr)
        .arg("--host")
        .arg(repo().join("tests/opencl/mxv/host_cl.cpp"))
        .args(["--depth", "64", "--run"])
        .current_dir(work.path())
        .env("HLSINSTR_DUMP", work.path().join("ndrange.bin"))
        .env("HLSINSTR_EMU_DEADLOCK_MS", "5000"));
    assert!(passed(&out), "hlsinstr emulate --run with host_cl.cpp:\n{}", text(&out));

    let ids: Vec<u32> = (0..5).collect();
    let key = hw_key(&ids, &manifest.probes);
    // (begins, ends, trips at each end) per unit: dot and its loop run once per row; the row
    // loop of mxv_single once with 4 trips; each NDRange work-item is one mxv_ndrange.
    let (rows, cols) = (4, 3);
    let dot = (rows, rows, vec![0; rows]);
    let dot_loop = (rows, rows, vec![cols; rows]);
    let runs = [
        ("mxv_single.bin", [dot.clone(), dot_loop.clone(), (1, 1, vec![0]), (1, 1, vec![rows as u64]), (0, 0, vec![])]),
        ("ndrange.bin", [dot, dot_loop, (0, 0, vec![]), (0, 0, vec![]), (rows, rows, vec![0; rows])]),
    ];
    for (file, expected) in runs {
        let bytes = std::fs::read(work.path().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let (version, n, dump_key, units) = read_dump(&bytes);
        assert_eq!((version, n), (1, 5), "{file}: version and units");
        assert_eq!(dump_key, key, "{file}: key = hw_key(0..N, probes)");
        for (u, (records, want)) in units.iter().zip(&expected).enumerate() {
            let header = records[0];
            assert_eq!((header.time, header.addr), (0, 0), "{file} unit {u}: linear mode, nothing dropped");
            let (b, e, trips) = begins_ends(records);
            assert_eq!((b, e, trips), want.clone(), "{file} unit {u} ({}): records", names[u]);
            assert!(records[1..].windows(2).all(|w| w[0].time <= w[1].time), "{file} unit {u}: oldest first");
        }
    }
}

#[test]
fn generated_host_header_compiles_warning_free_as_cpp11_and_checks_the_unit_count() {
    // The generated header with opencl-lib/host/hlsinstr_ocl_profiler.h (and its records header),
    // which it includes.
    require_cl_headers();
    let work = tempfile::tempdir().unwrap();
    let instr = work.path().join("instr");
    rewrite_mxv(&instr);
    let main = work.path().join("main.cpp");
    std::fs::write(
        &main,
        "#include \"hlsinstr_ocl_host.h\"\nint main() { return hlsinstr_ocl::kUnits == 5 && \
         hlsinstr_ocl::kUnit[5].kind == nullptr ? 0 : 1; }\n",
    )
    .unwrap();
    for cxx in ["g++", "clang++"] {
        let out = run(Command::new(cxx)
            .args(["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-I"])
            .arg(&instr)
            .arg("-I")
            .arg(repo().join("opencl-lib/host"))
            .arg(&main));
        assert!(out.status.success(), "{cxx} -std=c++11 -Wall -Wextra -Werror on hlsinstr_ocl_host.h:\n{}", text(&out));
    }
    let out = run(Command::new("g++")
        .args(["-std=c++11", "-fsyntax-only", "-DHLSINSTR_NUM_IBUFFERS=4", "-I"])
        .arg(&instr)
        .arg("-I")
        .arg(repo().join("opencl-lib/host"))
        .arg(&main));
    assert!(!out.status.success(), "a kernel build with another unit count must not compile");
    assert!(text(&out).contains("build the kernels with -DHLSINSTR_NUM_IBUFFERS=5"), "{}", text(&out));
}

#[test]
fn host_helper_reports_a_program_without_the_ibuffer_host_interface() {
    let work = tempfile::tempdir().unwrap();
    let instr = work.path().join("instr");
    rewrite_mxv(&instr);
    // Built without -DHLSINSTR_OPENCL_IBUFFER: the probes compile to nothing, no hlsinstr_host.
    let include = instr.display().to_string();
    let exe =
        emu_build(&instr.join("mxv.cl"), &repo().join("tests/opencl/mxv/host_cl.cpp"), &["-I", &include], work.path());
    let out = run(Command::new(&exe).current_dir(work.path()));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "one error per version:\n{t}");
    assert!(
        t.contains(
            "ERROR: clCreateKernel(hlsinstr_host): CL_INVALID_KERNEL_NAME (-46): the program has no iBuffer \
             host interface; build the kernels with -DHLSINSTR_OPENCL_IBUFFER -DHLSINSTR_NUM_IBUFFERS=5"
        ),
        "{t}"
    );
}

#[test]
fn host_header_never_replaces_a_user_file_and_strip_leaves_it_out() {
    let work = tempfile::tempdir().unwrap();
    let instr = work.path().join("instr");
    rewrite_mxv(&instr);
    // A rewrite into the same directory replaces its own header.
    rewrite_mxv(&instr);
    // A user's file of that name in the output directory stays, and nothing is written.
    let out_dir = work.path().join("taken");
    std::fs::create_dir(&out_dir).unwrap();
    std::fs::write(out_dir.join("hlsinstr_ocl_host.h"), "// mine\n").unwrap();
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", "modules", "--out"])
        .arg(&out_dir)
        .arg(repo().join("examples/opencl/mxv/kernels")));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("exists and was not generated by hlsinstr"), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(out_dir.join("hlsinstr_ocl_host.h")).unwrap(), "// mine\n");
    assert!(!out_dir.join("mxv.cl").exists(), "nothing written");
    // An input of that name is refused.
    let src = work.path().join("src");
    std::fs::create_dir(&src).unwrap();
    std::fs::copy(repo().join("examples/opencl/mxv/kernels/mxv.cl"), src.join("mxv.cl")).unwrap();
    std::fs::write(src.join("hlsinstr_ocl_host.h"), "// mine\n").unwrap();
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--out"])
        .arg(work.path().join("o2"))
        .arg(&src));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("an input is named hlsinstr_ocl_host.h"), "{}", text(&out));
    // --in-place writes no generated file into the user's sources, and says so.
    std::fs::remove_file(src.join("hlsinstr_ocl_host.h")).unwrap();
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(["rewrite", "--in-place"]).arg(&src));
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("--in-place: hlsinstr_ocl_host.h not written (rewrite with --out to get it)"));
    assert!(!src.join("hlsinstr_ocl_host.h").exists());
    let manifest: Manifest =
        serde_json::from_str(&std::fs::read_to_string(src.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    assert!(manifest.generated.is_empty(), "{:?}", manifest.generated);
    // strip restores the kernels and leaves the generated header out.
    let restored = work.path().join("restored");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr")).arg("strip").arg(&instr).arg("--out").arg(&restored));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read(restored.join("mxv.cl")).unwrap(),
        std::fs::read(repo().join("examples/opencl/mxv/kernels/mxv.cl")).unwrap()
    );
    assert!(!restored.join("hlsinstr_ocl_host.h").exists(), "strip copied the generated header");
}
