//! Builds libatomic_africa.a from the C core (../../src/aa_core/csrc) with the system's C compiler and
//! archiver (`CC`, `AR`; cc and ar by default) and the flags of the core's Makefile, so results equal
//! the wheel's bit for bit; or links a library already built when ATOMIC_AFRICA_LIB_DIR names its
//! directory (e.g. `python -c 'import aa_core; print(aa_core.get_library_dir())'`).
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(cmd: &mut Command) {
    let status = cmd.status().unwrap_or_else(|e| panic!("cannot run {:?}: {}", cmd, e));
    assert!(status.success(), "{:?} failed: {}", cmd, status);
}

fn main() {
    println!("cargo:rerun-if-env-changed=ATOMIC_AFRICA_LIB_DIR");
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo:rerun-if-env-changed=AR");
    if let Ok(dir) = env::var("ATOMIC_AFRICA_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
    } else {
        let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
        let core = manifest.join("../../src/aa_core");
        let csrc = core.join("csrc");
        let out = PathBuf::from(env::var("OUT_DIR").unwrap());
        let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
        let ar = env::var("AR").unwrap_or_else(|_| "ar".to_string());
        println!("cargo:rerun-if-changed={}", csrc.display());
        println!("cargo:rerun-if-changed={}", core.join("include").display());
        let mut sources: Vec<PathBuf> = std::fs::read_dir(&csrc)
            .unwrap_or_else(|e| panic!("{}: {} (build.rs expects the checkout's src/aa_core)", csrc.display(), e))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().map_or(false, |x| x == "c"))
            .collect();
        sources.sort();
        let mut objects = Vec::new();
        for src in &sources {
            let obj = out.join(Path::new(src.file_name().unwrap()).with_extension("o"));
            run(Command::new(&cc)
                .args(["-std=c11", "-O2", "-ffp-contract=off", "-fPIC", "-c"])
                .arg("-I").arg(core.join("include"))
                .arg("-I").arg(&csrc)
                .arg(src)
                .arg("-o").arg(&obj));
            objects.push(obj);
        }
        let lib = out.join("libatomic_africa.a");
        let _ = std::fs::remove_file(&lib);
        run(Command::new(&ar).arg("rcs").arg(&lib).args(&objects));
        println!("cargo:rustc-link-search=native={}", out.display());
    }
    println!("cargo:rustc-link-lib=static=atomic_africa");
    println!("cargo:rustc-link-lib=m");
}
