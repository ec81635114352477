//! Which statements `passes::fuse_statements` groups (seen through `check`): the
//! intermediates of a group are dead after it and nothing can alias them.

use blazar_interp::check;

/// Per group: the first statement's line, the number of statements, the intermediates.
fn groups(src: &str) -> Vec<(usize, u32, usize)> {
    let loaded = check("t.q", src, None);
    assert!(!loaded.has_errors(), "{src}\n{:?}", loaded.diagnostics);
    let mut g: Vec<(usize, u32, usize)> = loaded
        .program
        .fused
        .iter()
        .map(|(span, g)| (loaded.sources.line_of(*span), g.len, g.dead.len()))
        .collect();
    g.sort();
    g
}

#[test]
fn a_pipeline_is_one_group() {
    let src = "x = ones(8, 8)\n\
               y = 255 * (x / 255) .^ 0.45\n\
               t = y > 128\n\
               e = sum(t .* y)\n\
               print e, x\n";
    assert_eq!(groups(src), vec![(2, 3, 2)]);
}

#[test]
fn a_variable_read_after_the_group_ends_it() {
    let src = "x = ones(8, 8)\n\
               y = x .* 2\n\
               t = y > 1\n\
               e = sum(t)\n\
               print e, x, y\n";
    assert_eq!(groups(src), vec![(3, 2, 1)]);
}

#[test]
fn aliases_calls_stores_and_captures_end_groups() {
    // `b = a` is no array expression; a user call is impure; a store has a path; a
    // lambda capturing `y` mentions it outside any group.
    let src = "function r = g(v)\n\
               r = v\n\
               endfunction\n\
               a = ones(8, 8)\n\
               b = a\n\
               c = g(a) .* 2\n\
               a[0, 0] = 3\n\
               y = a .* 2\n\
               f = () -> sum(y)\n\
               z = y + 1\n\
               print b, c, z, f()\n";
    assert_eq!(groups(src), vec![]);
}

#[test]
fn parameters_outputs_and_reassigned_variables_are_not_intermediates() {
    let src = "function r = h(p)\n\
               p = p .* 2\n\
               r = p + 1\n\
               r = r .* 3\n\
               endfunction\n\
               function s = k(p)\n\
               q = p .* 2\n\
               s = q + 1\n\
               endfunction\n\
               print h(ones(4, 4)), k(ones(4, 4))\n";
    // Only `q` (a local read once, after its only assignment) is an intermediate.
    assert_eq!(groups(src), vec![(7, 2, 1)]);
}

#[test]
fn a_group_in_a_loop_body() {
    let src = "x = ones(8, 8)\n\
               s = 0\n\
               for i = 1..3\n\
                   y = x .* i\n\
                   t = y > 1\n\
                   s = s + sum(t)\n\
               end\n\
               print s, x\n";
    assert_eq!(groups(src), vec![(4, 3, 2)]);
}
