% match with string, number and wildcard arms; arms may span several lines.
% ==
% stdout {
% apple!
% two
% 2 lines
% other
% other
% }
function [] = describe(x)
    match x with
    | "apple" ->
        print "apple!"
    | 2 -> print "two"
    | 3 ->
        a = 1
        print a + 1, " lines"
    | _ ->
        print "other"
    end
end
describe("apple")
describe(2)
describe(3)
describe("pear")
describe(99)
