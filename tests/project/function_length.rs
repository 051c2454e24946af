//! Functions a reader can hold (issue 44): no function of `src/` or of a
//! crate's `src/` is over 80 lines unless its doc says why ("long
//! because …"). The 45 that were long when this test came are split; none
//! may come back.

use std::path::{Path, PathBuf};

use syn::visit::Visit;

use super::layers::rust_files;

/// The longest a function may be without a doc that says why.
const MOST_LINES: usize = 80;

/// A function's name, its lines (signature to closing brace) and whether
/// its doc says why it is long.
struct Function {
    name: String,
    lines: usize,
    explained: bool,
}

/// The functions of a file, those of `#[cfg(test)]` modules left out.
#[derive(Default)]
struct Functions {
    found: Vec<Function>,
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Path>()
                .is_ok_and(|p| p.is_ident("test"))
    })
}

fn says_why(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value().to_lowercase()),
                _ => None,
            },
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
        .contains("long because")
}

impl Functions {
    fn add(&mut self, attrs: &[syn::Attribute], sig: &syn::Signature, block: &syn::Block) {
        let start = sig.fn_token.span.start().line;
        let end = block.brace_token.span.close().end().line;
        self.found.push(Function {
            name: sig.ident.to_string(),
            lines: end + 1 - start,
            explained: says_why(attrs),
        });
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_cfg_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.add(&f.attrs, &f.sig, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.add(&f.attrs, &f.sig, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.add(&f.attrs, &f.sig, block);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every function over the limit whose doc does not say why: (file, name,
/// lines).
fn long_functions() -> Vec<(String, String, usize)> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    for krate in std::fs::read_dir(root().join("crates")).expect("the crates folder") {
        rust_files(
            &krate.expect("a folder entry").path().join("src"),
            &mut files,
        );
    }
    let mut long = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a readable source");
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut fns = Functions::default();
        fns.visit_file(&file);
        let rel = path
            .strip_prefix(root())
            .unwrap_or(Path::new(""))
            .display()
            .to_string();
        for f in fns.found {
            if f.lines > MOST_LINES && !f.explained {
                long.push((rel.clone(), f.name, f.lines));
            }
        }
    }
    long.sort();
    long
}

#[test]
fn no_function_is_long_unless_its_doc_says_why() {
    let long: Vec<String> = long_functions()
        .iter()
        .map(|(file, name, lines)| format!("{file}: `{name}` is {lines} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "over {MOST_LINES} lines, and no doc saying why (\"long because …\"):\n{}",
        long.join("\n")
    );
}
