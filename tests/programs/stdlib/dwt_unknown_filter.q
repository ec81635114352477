% build_dwt names its filters db1 ... db10 (and haar).
% ==
% error: build_dwt: unknown filter db45 \(use db1 \.\.\. db10 or haar\)
import "multirestransforms.q"
[S, S_H] = build_dwt("db45", 1)
