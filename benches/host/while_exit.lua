-- Twin of while_exit.q.
local total = 0
for n = 1, 10000 do
    local x = n
    while x ~= 1 do
        if x % 2 == 0 then
            x = x / 2
        else
            x = 3 * x + 1
        end
        total = total + 1
    end
end
print(total)
