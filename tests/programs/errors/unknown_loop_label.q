% `break label` with a label that names no enclosing loop is an error.
% ==
% error: unknown_loop_label\.q:7:15: error: no enclosing loop is labelled `nowhere`
outer:
for i = 0..3
    for j = 0..3
        break nowhere
    end
end
