//! Compiles the generated parser (`src/parser.c`) and the hand-written
//! external scanner (`src/scanner.c`).

fn main() {
    let src_dir = std::path::Path::new("src");

    let mut c_config = cc::Build::new();
    c_config.std("c11").include(src_dir);
    // The grammar's tests parse the whole real corpus; optimise the C code
    // even in dev/test builds (the workspace's `[profile.dev.package."*"]`
    // does not cover workspace members).
    c_config.opt_level(2);
    c_config
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-unused-but-set-variable")
        .flag_if_supported("-Wno-trigraphs");

    #[cfg(target_env = "msvc")]
    c_config.flag("-utf-8");

    for file in ["parser.c", "scanner.c"] {
        let path = src_dir.join(file);
        c_config.file(&path);
        println!("cargo:rerun-if-changed={}", path.display());
    }
    c_config.compile("tree-sitter-agentmd");
}
