; assay highlights for tree-sitter-c 0.23.6 (ABI 14).
; Precedence: general patterns first, specific ones later; for the same
; node a later pattern wins, and an inner node wins over an outer one.
; Predicates (#match? #eq? #any-of?) are evaluated by src/core/syntax.c.

(identifier) @variable

; ALL_CAPS names are macros and enum constants by convention.
((identifier) @constant
 (#match? @constant "^[A-Z][A-Z\\d_]*$"))

[
  "break" "case" "continue" "default" "do" "else" "for" "goto" "if"
  "return" "switch" "while"
] @keyword

[
  "enum" "struct" "union" "typedef" "sizeof" "offsetof" "alignof"
  "_Alignof" "_Generic" "asm" "__asm__" "__attribute__" "__extension__"
] @keyword

[
  "const" "volatile" "restrict" "_Atomic" "extern" "static" "register"
  "inline" "auto" "thread_local" "__thread" "_Noreturn" "noreturn"
  "constexpr"
] @keyword.modifier

(storage_class_specifier) @keyword.modifier
(type_qualifier) @keyword.modifier

[
  "=" "+=" "-=" "*=" "/=" "%=" "&=" "|=" "^=" "<<=" ">>="
  "+" "-" "*" "/" "%" "++" "--" "<<" ">>"
  "==" "!=" "<" ">" "<=" ">=" "&&" "||" "!"
  "&" "|" "^" "~" "?" "->"
] @operator

(primitive_type) @type.builtin
(sized_type_specifier) @type.builtin
(type_identifier) @type

(field_identifier) @property
(statement_identifier) @label

(number_literal) @number
(char_literal) @string
(string_literal) @string
(concatenated_string) @string
(system_lib_string) @string
(escape_sequence) @string.escape

[(true) (false) (null) "NULL" "nullptr"] @constant.builtin

(call_expression
  function: (identifier) @function.call)
(call_expression
  function: (field_expression
    field: (field_identifier) @function.call))
(function_declarator
  declarator: (identifier) @function)
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

(comment) @comment
