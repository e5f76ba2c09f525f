module Wabc;
initial begin
  $dumpfile("img/wave.vcd");
  $dumplimit(65536);
  $dumpvars(0, tb.s_ref, tb.s_dut, tb.overflow_ref, tb.overflow_dut, tb.tb_match);
end
endmodule
