; assay highlights for tree-sitter-cuda 0.20.4 (ABI 14), which extends
; the C++ grammar with CUDA qualifiers and the <<< >>> launch syntax.
; Precedence: general patterns first, specific ones later; for the same
; node a later pattern wins, and an inner node wins over an outer one.
; Predicates are evaluated by src/core/syntax.c.

(identifier) @variable

((identifier) @constant
 (#match? @constant "^[A-Z][A-Z\\d_]*$"))

[
  "break" "case" "continue" "default" "do" "else" "for" "goto" "if"
  "return" "switch" "while" "try" "catch" "throw" "co_await"
  "co_return" "co_yield"
] @keyword

[
  "enum" "struct" "union" "class" "typedef" "sizeof" "offsetof"
  "alignof" "_Alignof" "_Generic" "asm" "__asm__" "__attribute__"
  "__extension__" "namespace" "template" "typename" "using" "new"
  "delete" "operator" "concept" "requires" "decltype" "static_assert"
  "friend" "public" "private" "protected"
] @keyword

[
  "const" "volatile" "restrict" "_Atomic" "extern" "static" "register"
  "inline" "thread_local" "__thread" "_Noreturn" "noreturn" "constexpr"
  "consteval" "constinit" "mutable" "explicit" "virtual" "override"
  "final" "noexcept"
] @keyword.modifier

(storage_class_specifier) @keyword.modifier
(type_qualifier) @keyword.modifier
(virtual) @keyword.modifier

[
  "=" "+=" "-=" "*=" "/=" "%=" "&=" "|=" "^=" "<<=" ">>="
  "+" "-" "*" "/" "%" "++" "--" "<<" ">>"
  "==" "!=" "<" ">" "<=" ">=" "<=>" "&&" "||" "!"
  "&" "|" "^" "~" "?" "->" "::"
] @operator

(primitive_type) @type.builtin
(sized_type_specifier) @type.builtin
(auto) @type.builtin
(type_identifier) @type
(namespace_identifier) @type

(field_identifier) @property
(statement_identifier) @label

(number_literal) @number
(char_literal) @string
(string_literal) @string
(raw_string_literal) @string
(concatenated_string) @string
(system_lib_string) @string
(escape_sequence) @string.escape

[(true) (false) (null) (this) "NULL"] @constant.builtin

(call_expression
  function: (identifier) @function.call)
(call_expression
  function: (field_expression
    field: (field_identifier) @function.call))
(call_expression
  function: (qualified_identifier
    name: (identifier) @function.call))
(template_function
  name: (identifier) @function.call)
(function_declarator
  declarator: (identifier) @function)
(function_declarator
  declarator: (field_identifier) @function)
(function_declarator
  declarator: (qualified_identifier
    name: (identifier) @function))
(preproc_function_def
  name: (identifier) @function.macro)
(preproc_def
  name: (identifier) @constant.macro)

[
  "#define" "#elif" "#elifdef" "#elifndef" "#else" "#endif" "#if"
  "#ifdef" "#ifndef" "#include"
] @keyword.directive
(preproc_directive) @keyword.directive
"defined" @keyword.directive

; CUDA: execution-space and memory-space qualifiers, launch syntax and
; the built-in index variables.
[
  "__global__" "__device__" "__host__" "__shared__" "__constant__"
  "__managed__" "__forceinline__" "__noinline__" "__restrict__"
  "__grid_constant__" "__launch_bounds__" "__local__"
] @keyword.modifier

(kernel_call_syntax
  ["<<<" ">>>"] @operator)
(call_expression
  function: (identifier) @function.call
  (kernel_call_syntax))

((identifier) @constant.builtin
 (#any-of? @constant.builtin
  "threadIdx" "blockIdx" "blockDim" "gridDim" "warpSize"))
((identifier) @function.builtin
 (#match? @function.builtin "^(__syncthreads|__syncwarp|atomic[A-Z][A-Za-z]*|__shfl[a-z_]*)$"))

(comment) @comment
