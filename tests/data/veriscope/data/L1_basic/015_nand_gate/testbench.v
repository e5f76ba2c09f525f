`timescale 1ns/1ps
module tb;
    reg a, b;
    wire out;
    integer i, errors = 0, samples = 0;

    top_module dut (.a(a), .b(b), .out(out));

    initial begin
        for (i = 0; i < 4; i = i + 1) begin
            {a, b} = i[1:0];
            #5;
            samples = samples + 1;
            if (out !== ~(a & b)) begin
                errors = errors + 1;
                $display("a=%b b=%b: out=%b, want %b", a, b, out, ~(a & b));
            end
        end
        $display("Mismatches: %0d in %0d samples", errors, samples);
        $finish;
    end
endmodule
