; assay highlights for tree-sitter-verilog 1.0.0 (ABI 14).  This grammar
; ships no queries; node names come from its src/node-types.json.
; Precedence: general patterns first, specific ones later; for the same
; node a later pattern wins, and an inner node wins over an outer one.
; Predicates (#match? #eq? #any-of?) are evaluated by src/core/syntax.c.

(simple_identifier) @variable
(escaped_identifier) @variable

; ---- keywords -----------------------------------------------------------

[
  "module" "endmodule" "macromodule" "primitive" "endprimitive"
  "interface" "endinterface" "package" "endpackage" "program"
  "endprogram" "class" "endclass" "checker" "endchecker" "config"
  "endconfig" "function" "endfunction" "task" "endtask" "generate"
  "endgenerate" "specify" "endspecify" "table" "endtable" "clocking"
  "endclocking" "property" "endproperty" "sequence" "endsequence"
  "covergroup" "endgroup" "modport" "begin" "end" "fork" "join"
  "join_any" "join_none"
] @keyword

[
  "always" "always_comb" "always_ff" "always_latch" "initial" "final"
  "assign" "deassign" "force" "release" "alias"
] @keyword

[
  "if" "else" "case" "casex" "casez" "endcase" "default" "for"
  "foreach" "forever" "repeat" "while" "do" "break" "continue" "return"
  "wait" "disable" "unique" "unique0" "priority" "iff" "inside"
  "with" "matches" "tagged"
] @keyword

[
  "posedge" "negedge" "edge" "or" "and" "not"
] @keyword

[
  "parameter" "localparam" "specparam" "defparam" "genvar" "typedef"
  "enum" "struct" "union" "packed" "import" "export" "extends"
  "implements" "virtual" "new" "null" "this" "super" "assert" "assume"
  "cover" "constraint" "rand" "randc" "automatic" "static" "const"
  "extern" "pure" "local" "protected" "ref" "var" "type"
] @keyword

(always_keyword) @keyword
(module_keyword) @keyword
(case_keyword) @keyword
(join_keyword) @keyword
(lifetime) @keyword
(edge_identifier) @keyword

(port_direction) @keyword.modifier
["signed" "unsigned" "scalared" "vectored"] @keyword.modifier

; ---- types --------------------------------------------------------------

(net_type) @type.builtin
(integer_vector_type) @type.builtin
(integer_atom_type) @type.builtin
(non_integer_type) @type.builtin
["string" "chandle" "event" "void" "supply0" "supply1"] @type.builtin
(class_type (class_identifier) @type)
(data_type (simple_identifier) @type)
(n_input_gatetype) @type.builtin
(n_output_gatetype) @type.builtin

; ---- literals -----------------------------------------------------------

[
  (integral_number)
  (unsigned_number)
  (decimal_number)
  (binary_number)
  (octal_number)
  (hex_number)
  (real_number)
  (fixed_point_number)
  (unbased_unsized_literal)
  (time_literal)
] @number

(string_literal) @string
(double_quoted_string) @string

; ---- operators ----------------------------------------------------------

(unary_operator) @operator
(inc_or_dec_operator) @operator
(assignment_operator) @operator
[
  "=" "<=" "+" "-" "*" "/" "%" "**" "==" "!=" "===" "!==" "==?" "!=?"
  "<" ">" ">=" "<<" ">>" "<<<" ">>>" "&&" "||" "!" "&" "|" "^" "~"
  "~&" "~|" "~^" "^~" "?" "->" "<->" "|->" "|=>" "+:" "-:" "@" "#"
  "##"
] @operator

; ---- names --------------------------------------------------------------

; Module being declared, and the module an instance is made of.
(module_header (simple_identifier) @module)
(module_instantiation (simple_identifier) @module)
(name_of_instance (instance_identifier (simple_identifier) @variable))

; Ports: where they are declared and where an instance connects them.
(port_identifier (simple_identifier) @property)
(named_port_connection (port_identifier (simple_identifier) @property))
(list_of_port_identifiers (port_identifier (simple_identifier) @property))

(function_identifier (simple_identifier) @function)
(function_identifier (function_identifier (simple_identifier) @function))
(task_identifier (task_identifier (simple_identifier) @function))
(tf_call (simple_identifier) @function.call)
(system_tf_identifier) @function.builtin
[
  "$error" "$fatal" "$info" "$warning" "$root" "$unit" "$setup" "$hold"
  "$setuphold" "$recovery" "$removal" "$recrem" "$skew" "$timeskew"
  "$fullskew" "$period" "$width" "$nochange"
] @function.builtin

(generate_block_identifier
  (generate_block_identifier (simple_identifier) @label))

; Parameters where they are declared; ALL_CAPS names anywhere are
; constants by convention.
(param_assignment (parameter_identifier (simple_identifier) @constant))
((simple_identifier) @constant
 (#match? @constant "^[A-Z][A-Z\\d_]*$"))

; ---- compiler directives ------------------------------------------------

[
  "directive_begin_keywords" "directive_celldefine"
  "directive_default_nettype" "directive_define" "directive_else"
  "directive_elsif" "directive_end_keywords" "directive_endcelldefine"
  "directive_endif" "directive_ifdef" "directive_ifndef"
  "directive_include" "directive_line" "directive_nounconnected_drive"
  "directive_resetall" "directive_timescale"
  "directive_unconnected_drive" "directive_undef" "directive_undefineall"
] @keyword.directive

(text_macro_name (text_macro_identifier (simple_identifier) @constant.macro))
(id_directive (text_macro_identifier (simple_identifier) @constant.macro))
(simple_text_macro_usage) @keyword.directive
(simple_text_macro_usage
  (text_macro_identifier (simple_identifier) @keyword.directive))
(default_nettype_value) @keyword

; Keywords are reserved words, so an identifier spelled like one only
; comes from error recovery misreading broken text; keep it a keyword so
; that the lines after a syntax error still look right.
((simple_identifier) @keyword
 (#any-of? @keyword
  "module" "endmodule" "begin" "end" "assign" "always" "always_ff"
  "always_comb" "initial" "if" "else" "case" "endcase" "default" "for"
  "while" "function" "endfunction" "task" "endtask" "generate"
  "endgenerate" "parameter" "localparam" "posedge" "negedge" "input"
  "output" "inout"))
((simple_identifier) @type.builtin
 (#any-of? @type.builtin
  "wire" "reg" "logic" "integer" "bit" "byte" "int" "tri" "supply0"
  "supply1" "real" "time"))

(comment) @comment
