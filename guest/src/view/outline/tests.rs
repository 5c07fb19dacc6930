use super::*;

/// `kind name [start:end]` for every entry, indented by depth.
fn flat(symbols: &[Symbol]) -> Vec<String> {
    fn push(out: &mut Vec<String>, symbols: &[Symbol], level: usize) {
        for s in symbols {
            let vis = s
                .visibility
                .as_deref()
                .map_or(String::new(), |v| format!("{v} "));
            let kind = if s.kind.is_empty() {
                String::new()
            } else {
                format!("{} ", s.kind)
            };
            let detail = s
                .detail
                .as_deref()
                .map_or(String::new(), |d| format!(" {d}"));
            out.push(format!(
                "{}{vis}{kind}{}{detail} {}:{}",
                "  ".repeat(level),
                s.name,
                s.start,
                s.end
            ));
            push(out, &s.children, level + 1);
        }
    }
    let mut out = Vec::new();
    push(&mut out, symbols, 0);
    out
}

fn outline(language: Language, text: &str) -> Vec<String> {
    flat(&symbols(language, text).expect("the language has an outline"))
}

fn entry(name: &str, start: u64, end: u64, children: Vec<Symbol>) -> Symbol {
    Symbol {
        kind: "fn",
        name: name.to_owned(),
        start,
        end,
        children,
        ..Symbol::default()
    }
}

fn sample_tree() -> Vec<Symbol> {
    vec![
        entry(
            "outer",
            1,
            40,
            vec![
                entry("inner", 2, 20, vec![entry("deepest", 3, 4, vec![])]),
                entry("second", 21, 39, vec![]),
            ],
        ),
        entry("last", 41, 41, vec![]),
    ]
}

#[test]
fn the_full_depth_is_shown_when_it_fits() {
    let rendered = render(&sample_tree(), 1000);
    assert_eq!(
        rendered.text,
        "fn outer [1:40]\n  fn inner [2:20]\n    fn deepest [3:4]\n  fn second [21:39]\nfn last [41]\n"
    );
    assert_eq!(
        (
            rendered.depth,
            rendered.max_depth,
            rendered.shown,
            rendered.total
        ),
        (3, 3, 5, 5)
    );
    assert_eq!(rendered.rest, None);
}

#[test]
fn depth_is_capped_level_by_level_and_capped_entries_count_their_children() {
    let full = render(&sample_tree(), 1000).text.len();
    let rendered = render(&sample_tree(), full - 1);
    assert_eq!(
        rendered.text,
        "fn outer [1:40]\n  fn inner (1 child) [2:20]\n  fn second [21:39]\nfn last [41]\n"
    );
    let rendered = render(&sample_tree(), 45);
    assert_eq!(
        rendered.text,
        "fn outer (2 children) [1:40]\nfn last [41]\n"
    );
    assert_eq!((rendered.depth, rendered.shown), (1, 2));
}

#[test]
fn when_even_the_top_level_does_not_fit_the_rest_is_counted_with_its_first_line() {
    let rendered = render(&sample_tree(), 30);
    assert_eq!(rendered.text, "fn outer (2 children) [1:40]\n");
    assert_eq!(rendered.rest, Some((1, 41)));
}

#[test]
fn markdown_headings_nest_by_level_and_code_blocks_have_none() {
    let text =
        "---\ntitle: x\n---\n# Top\n\n```\n# not a heading\n```\nSub\n---\n\ntext\n\n# Next ##\n";
    assert_eq!(
        outline(Language::Markdown, text),
        ["Top 4:12", "  Sub 9:12", "Next 14:14"]
    );
}

#[test]
fn json_keys_nest_and_arrays_are_counted() {
    let text = "{\n  // a comment\n  \"a\": 1,\n  \"list\": [1, 2,\n    3],\n  \"objs\": [\n    {\"k\": true},\n    2\n  ],\n  \"o\": {\"x\": null}\n}\n";
    assert_eq!(
        outline(Language::Json, text),
        [
            "a 3:3",
            "list [3 items] 4:5",
            "objs [2 items] 6:9",
            "  [0] 7:7",
            "    k 7:7",
            "o 10:10",
            "  x 10:10"
        ]
    );
}

#[test]
fn json_outline_stops_at_a_syntax_error_with_what_it_found() {
    let text = "{\n  \"a\": {\n    \"b\": 1\n  },\n  \"c\": oops ]\n";
    let found = symbols(Language::Json, text).unwrap();
    assert!(found.is_empty() || found[0].name == "a", "{found:?}");
    let array = symbols(Language::Json, "[\n{\"a\": 1},\n{\"a\": 2}\n]\n").unwrap();
    assert_eq!(flat(&array)[0], "root [2 items] 1:4");
}

#[test]
fn yaml_keys_nest_by_indentation_sequences_are_counted_and_block_scalars_skipped() {
    let text = "a:\n  b: 1\n  script: |\n    not: a key\n  list:\n  - x: 1\n    y: 2\n  - plain\n# c\nz: 2\n---\nsecond: 3\n";
    assert_eq!(
        outline(Language::Yaml, text),
        [
            "a 1:8",
            "  b 2:2",
            "  script 3:4",
            "  list [2 items] 5:8",
            "    [0] 6:7",
            "      x 6:6",
            "      y 7:7",
            "z 10:10",
            "--- 11:12",
            "  second 12:12"
        ]
    );
}

#[test]
fn toml_tables_hold_their_keys_and_arrays_of_tables_are_grouped() {
    let text = "top = 1\n\n[t]\ns = \"\"\"\nx = not a key\n\"\"\"\nlist = [\n  1,\n]\n\n[[bin]]\nname = \"a\"\n[[bin]]\nname = \"b\"\n";
    assert_eq!(
        outline(Language::Toml, text),
        [
            "top 1:1",
            "[t] 3:9",
            "  s 4:6",
            "  list 7:9",
            "[[bin]] [2 items] 11:14",
            "  [0] 11:12",
            "    name 12:12",
            "  [1] 13:14",
            "    name 14:14"
        ]
    );
}

#[test]
fn names_and_scripts_choose_the_outline() {
    assert_eq!(Language::detect("src/Main.RS", b""), Language::Rust);
    assert_eq!(Language::detect("Cargo.lock", b""), Language::Plain);
    assert_eq!(Language::detect("package-lock.json", b"{"), Language::Plain);
    assert_eq!(
        Language::detect("bin/tool", b"#!/usr/bin/env python3\n"),
        Language::Python
    );
    assert_eq!(
        Language::detect("x.h", b"#pragma once\nnamespace a {\n"),
        Language::Cpp
    );
    assert_eq!(Language::detect("x.h", b"int f(void);\n"), Language::C);
    assert_eq!(Language::detect("server.log", b""), Language::Plain);
}

#[cfg(feature = "lang-rust")]
#[test]
fn rust_items_carry_visibility_and_impls_name_their_trait_and_type() {
    let text = "pub struct S;\nimpl<T> Display for S<T> {\n    fn fmt(&self) {}\n}\npub(crate) mod m {\n    pub fn f() {}\n}\n";
    assert_eq!(
        outline(Language::Rust, text),
        [
            "pub struct S 1:1",
            "impl Display for S<T> 2:4",
            "  fn fmt 3:3",
            "pub(crate) mod m 5:7",
            "  pub fn f 6:6"
        ]
    );
}

#[cfg(feature = "lang-python")]
#[test]
fn python_definitions_start_at_their_def_line_past_decorators() {
    let text = "X_MAX = 3\nlower = 1\n\n@decorator\nclass A:\n    def f(self):\n        def g():\n            pass\n";
    assert_eq!(
        outline(Language::Python, text),
        [
            "const X_MAX 1:1",
            "class A 5:8",
            "  def f 6:8",
            "    def g 7:8"
        ]
    );
}

#[cfg(feature = "lang-go")]
#[test]
fn go_methods_are_named_with_their_receiver() {
    let text = "package p\n\nfunc (s *Server) Run() {}\n\ntype T struct{}\n";
    assert_eq!(
        outline(Language::Go, text),
        ["func (*Server) Run 3:3", "struct T 5:5"]
    );
}

#[cfg(feature = "lang-cpp")]
#[test]
fn cpp_classes_hold_their_methods_inside_namespaces_and_templates() {
    let text = "namespace n {\ntemplate <class T>\nclass C {\n  void f();\n  int g() { return 1; }\n};\n}\n";
    assert_eq!(
        outline(Language::Cpp, text),
        [
            "namespace n 1:7",
            "  class C 3:6",
            "    method f 4:4",
            "    method g 5:5"
        ]
    );
}

#[cfg(feature = "lang-typescript")]
#[test]
fn typescript_exports_and_member_visibility_are_shown() {
    let text = "export class A {\n  private x = 1;\n  public get y() { return 1; }\n}\nexport const f = () => 1;\n";
    assert_eq!(
        outline(Language::TypeScript, text),
        [
            "export class A 1:4",
            "  private field x 2:2",
            "  public get y 3:3",
            "export function f 5:5"
        ]
    );
}

#[cfg(feature = "lang-python")]
#[test]
fn every_top_level_symbol_of_a_large_file_has_its_true_start_line() {
    use std::fmt::Write as _;
    let mut text = String::from("import os\n\n");
    for n in 0..1500 {
        let _ = write!(
            text,
            "def handler_{n}(request):\n    \"\"\"Doc.\"\"\"\n    return request\n\n\n"
        );
        if n % 100 == 0 {
            let _ = write!(
                text,
                "class Holder{n}:\n    def method(self):\n        pass\n\n\n"
            );
        }
    }
    let found = symbols(Language::Python, &text).unwrap();
    let mut expected = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if let Some(rest) = line
            .strip_prefix("def ")
            .or_else(|| line.strip_prefix("class "))
        {
            let name = rest.split(['(', ':']).next().unwrap();
            expected.push((name.to_owned(), index as u64 + 1));
        }
    }
    let got: Vec<_> = found.iter().map(|s| (s.name.clone(), s.start)).collect();
    assert_eq!(got, expected);
}

#[test]
fn a_parse_of_garbage_is_stopped_and_the_read_says_why() {
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;
    // Tokens that keep tree-sitter's error recovery busy.
    const TOKENS: [&str; 12] = [
        "{", "(", "[", "=>", "'", "`", "/*", "function", "if", ":", ")", ";",
    ];
    let mut garbage = String::new();
    let mut x: u64 = 0x9E37_79B9;
    while garbage.len() < 600_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        garbage.push_str(TOKENS[(x % 12) as usize]);
        garbage.push(if x.is_multiple_of(16) { '\n' } else { ' ' });
    }
    let fs = MemFs::new();
    fs.add_file("bundle.js", garbage.as_bytes());
    let mut session = Session::open("{}", fs).unwrap();
    let result = session.call("read", r#"{"file_path": "bundle.js"}"#);
    assert!(!result.is_error, "{}", result.text());
    let text = result.text();
    assert!(
        text.contains("Its javascript outline could not be made (its parse was stopped"),
        "{}",
        &text[..text.len().min(400)]
    );
    assert_eq!(result.metadata["kind"], "head_tail");
}

#[cfg(feature = "lang-javascript")]
#[test]
fn bundles_are_outlined_from_inside_the_function_that_wraps_them() {
    let iife =
        "(function () {\n  var VERSION = 1;\n  function parse(a) {\n    return a;\n  }\n})();\n";
    assert_eq!(
        outline(Language::JavaScript, iife),
        ["var VERSION 2:2", "function parse 3:5"]
    );
    let bang = "!function(e){function t(n){return n}var r=2}(this);";
    assert_eq!(
        outline(Language::JavaScript, bang),
        ["function t 1:1", "var r 1:1"]
    );
    let umd = "(function (global, factory) {\n  typeof exports === 'object' ? factory(exports) : factory(global.x = {});\n})(this, (function (exports) { 'use strict';\n  class Parser {\n    parse() {}\n  }\n  exports.Parser = Parser;\n}));\n";
    assert_eq!(
        outline(Language::JavaScript, umd),
        ["class Parser 4:6", "  method parse 5:5"]
    );
    // A call of something else stays out.
    assert!(outline(Language::JavaScript, "main(function () { var x = 1; });\n").is_empty());
}
