//! Go to definition and document symbols.

use crate::analysis::Analysis;
use crate::index::{DefId, DefKind, Index};
use crate::resolve::{self, Target};
use lsp_types::{DocumentSymbol, Location, Range, SymbolKind, Uri};

/// Where the name at `offset` is defined; an `import` goes to its module.
pub fn definition(a: &Analysis, uri: &Uri, offset: u32) -> Option<Location> {
    match resolve::at(a, offset)? {
        Target::Local(d) => Some(Location::new(
            uri.clone(),
            a.doc.range(a.doc.index.defs[d].span),
        )),
        Target::Module(m, d) => {
            let m = &a.modules[m];
            let span = m.source.index.defs[d].span;
            Some(Location::new(m.uri.clone()?, m.source.range(span)))
        }
        Target::Import(m) => Some(Location::new(a.modules[m].uri.clone()?, Range::default())),
        Target::Field(name) => {
            let ix = &a.doc.index;
            let f = ix
                .defs
                .iter()
                .find(|d| d.kind == DefKind::Field && d.name == name)?;
            Some(Location::new(uri.clone(), a.doc.range(f.span)))
        }
        Target::Builtin(_) => None,
    }
}

/// The document's outline: top-level functions (with their nested functions),
/// variables, classes (with their fields) and macros.
pub fn symbols(a: &Analysis) -> Vec<DocumentSymbol> {
    let ix = &a.doc.index;
    ix.top.iter().map(|&d| symbol(a, ix, d)).collect()
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn symbol(a: &Analysis, ix: &Index, d: DefId) -> DocumentSymbol {
    let def = &ix.defs[d];
    let kind = match def.kind {
        DefKind::Function => SymbolKind::FUNCTION,
        DefKind::Variable | DefKind::Parameter | DefKind::Output => SymbolKind::VARIABLE,
        DefKind::Class => SymbolKind::CLASS,
        DefKind::TypeAlias => SymbolKind::TYPE_PARAMETER,
        DefKind::Field => SymbolKind::FIELD,
        DefKind::Macro => SymbolKind::OPERATOR,
    };
    let children: Vec<DocumentSymbol> = def
        .inner
        .map(|s| {
            ix.scopes[s]
                .defs
                .iter()
                .filter(|&&c| matches!(ix.defs[c].kind, DefKind::Function | DefKind::Field))
                .map(|&c| symbol(a, ix, c))
                .collect()
        })
        .unwrap_or_default();
    let range = a.doc.range(def.full);
    let mut selection = a.doc.range(def.span);
    // The selection must lie inside the range.
    if selection.start < range.start || selection.end > range.end {
        selection = range;
    }
    DocumentSymbol {
        name: def.name.clone(),
        detail: def.detail.clone(),
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: (!children.is_empty()).then_some(children),
    }
}
