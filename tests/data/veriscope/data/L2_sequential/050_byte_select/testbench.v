`timescale 1ns/1ps
module tb;
    reg clk = 0;
    reg [31:0] d;
    reg [1:0] sel;
    wire [7:0] q;
    integer i, errors = 0, samples = 0;

    top_module dut (.clk(clk), .d(d), .sel(sel), .q(q));
    always #5 clk = ~clk;

    initial begin
        d = 32'hA1B2C3D4;
        for (i = 0; i < 8; i = i + 1) begin
            sel = i[1:0];
            @(posedge clk); #1;
            samples = samples + 1;
            if (q !== d[8*sel +: 8]) errors = errors + 1;
        end
        $display("Mismatches: %0d in %0d samples", errors, samples);
        $finish;
    end
endmodule
