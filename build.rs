//! Embeds the stock rules packages and scenarios in the binary, so
//! `portolan` plays with no files beside it. A rules directory on disk
//! overrides them at run time.

use std::fs;
use std::path::Path;

fn main() {
    let mut out = String::from(
        "/// Stock files: (path under the repository, contents).\npub static FILES: &[(&str, &str)] = &[\n",
    );
    for top in ["rules", "scenarios"] {
        println!("cargo:rerun-if-changed={top}");
        let mut files = Vec::new();
        collect(Path::new(top), &mut files);
        files.sort();
        for f in files {
            let path = f.to_string_lossy().replace('\\', "/");
            let abs = fs::canonicalize(&f).expect("stock file");
            out.push_str(&format!(
                "    ({path:?}, include_str!({:?})),\n",
                abs.to_string_lossy()
            ));
        }
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("stock.rs");
    fs::write(dest, out).expect("write stock.rs");
}

fn collect(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        println!("cargo:rerun-if-changed={}", p.display());
        if p.is_dir() {
            collect(&p, files);
        } else if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("yaml" | "lua" | "md")
        ) {
            files.push(p);
        }
    }
}
