% A vec with a non-integer element passed where an ivecN is declared is an error that
% names the element.
% ==
% error: real_vec_to_ivec\.q:8:1: error: argument `p` of `row_of`: expected ivec2, got a vec whose element 1 is the non-integer 2\.5
function r = row_of(p : ivec2)
    r = p[0]
end
row_of([1, 2.5])
