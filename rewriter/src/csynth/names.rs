//! How a name finds its module in a report. Vivado HLS cuts module names to their first 20
//! characters, and not always in the same places: a function's module may be cut
//! (`KeccakF1600_StatePermute` has the module `KeccakF1600_StatePer`, public 2018.3 designs),
//! or an instance list may name a module by its cut name while the module keeps its whole
//! one (`Loop_writeoutput_pro` instantiates `Loop_writeoutput_proc`, public 2020.1 dataflow
//! designs). One lookup serves both, so every caller finds the same module.

use super::Module;

/// The length Vivado HLS cuts module names to.
const VIVADO_NAME_CHARS: usize = 20;

/// The module `name` names, in this order:
/// 1. the module of exactly that name;
/// 2. a name longer than 20 characters: the module named by its first 20;
/// 3. a name of exactly 20 characters (a cut name): the one module whose name starts with it
///    (none when several do: a cut name that could be either is no answer).
pub(super) fn find<'a>(modules: &'a [Module], name: &str) -> Option<&'a Module> {
    if let Some(m) = modules.iter().find(|m| m.name == name) {
        return Some(m);
    }
    if name.len() > VIVADO_NAME_CHARS {
        let cut = name.get(..VIVADO_NAME_CHARS)?;
        return modules.iter().find(|m| m.name == cut);
    }
    if name.len() == VIVADO_NAME_CHARS {
        let mut longer = modules.iter().filter(|m| m.name.starts_with(name));
        let first = longer.next()?;
        return longer.next().is_none().then_some(first);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modules(names: &[&str]) -> Vec<Module> {
        names.iter().map(|n| Module { name: n.to_string(), ..Module::default() }).collect()
    }

    fn found<'a>(ms: &'a [Module], name: &str) -> Option<&'a str> {
        find(ms, name).map(|m| m.name.as_str())
    }

    #[test]
    fn a_long_name_finds_the_module_cut_to_20_characters() {
        let ms = modules(&["KeccakF1600_StatePer", "top"]);
        assert_eq!(found(&ms, "KeccakF1600_StatePermute"), Some("KeccakF1600_StatePer"));
        assert_eq!(found(&ms, "KeccakF1600_StatePer"), Some("KeccakF1600_StatePer"));
        assert_eq!(found(&ms, "KeccakF1600_StatePerX"), Some("KeccakF1600_StatePer"));
        // Only a longer name is cut: a shorter prefix of a module is not that module.
        assert_eq!(found(&ms, "KeccakF1600_StatePe"), None);
    }

    #[test]
    fn a_cut_name_finds_the_one_module_it_was_cut_from() {
        let ms = modules(&["Loop_writeoutput_proc", "Loop_readin_proc1", "top"]);
        assert_eq!(found(&ms, "Loop_writeoutput_pro"), Some("Loop_writeoutput_proc"));
        // Shorter than 20 characters: not a cut name.
        assert_eq!(found(&ms, "Loop_readin_proc"), None);
    }

    #[test]
    fn a_cut_name_of_two_modules_is_no_answer_and_an_exact_name_wins() {
        let ms = modules(&["Loop_writeoutput_proc1", "Loop_writeoutput_proc2"]);
        assert_eq!(found(&ms, "Loop_writeoutput_pro"), None);
        let ms = modules(&["Loop_writeoutput_proc1", "Loop_writeoutput_pro"]);
        assert_eq!(found(&ms, "Loop_writeoutput_pro"), Some("Loop_writeoutput_pro"));
    }
}
