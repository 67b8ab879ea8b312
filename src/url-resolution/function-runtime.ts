/**
 * What CloudFront Functions' JavaScript runtime 2.0 runs, as its feature page lists it:
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-javascript-runtime-20.html
 * ES 5.1 (its types, operators, function features and the statements break, catch, continue,
 * do-while, else, finally, for, for-in, if, label, return, switch, throw, try, var, while), and of
 * later editions only const and let, async and await (await inside async functions; neither async
 * arguments nor async closures), template literals, arrow functions, rest parameters and the
 * exponent operator; the built-in methods it lists (runtime-builtins.ts), and regular expressions
 * of ES 5.1's flags. Anything else may be refused when the function is published, or fail every
 * request it meets. `site build` parses each function it emits (acorn) and refuses one that holds
 * a feature outside this list, naming the feature and its place: the syntax, a `catch` without its
 * binding, `await` outside an async function, an async function inside another, a regular
 * expression's flags and the syntax ES 5.1 lacks (lookbehind, \p{…}), and each call of a
 * built-in by a name the list does not hold (Array.from, .flat(), new Function, eval).
 */
import { parse, type Node } from 'acorn';
import { GLOBAL_FUNCTIONS, REGEX_FLAGS, STATIC_METHODS, VALUE_METHODS } from './runtime-builtins.ts';

/** The syntax tree's node types the runtime supports (ESTree names, as acorn gives them). */
const SUPPORTED = new Set([
  'Program', 'ExpressionStatement', 'BlockStatement', 'EmptyStatement', 'ReturnStatement', 'LabeledStatement',
  'BreakStatement', 'ContinueStatement', 'IfStatement', 'SwitchStatement', 'SwitchCase', 'ThrowStatement',
  'TryStatement', 'CatchClause', 'WhileStatement', 'DoWhileStatement', 'ForStatement', 'ForInStatement',
  'FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'VariableDeclaration', 'VariableDeclarator',
  'Identifier', 'Literal', 'ThisExpression', 'ArrayExpression', 'ObjectExpression', 'Property',
  'UnaryExpression', 'UpdateExpression', 'BinaryExpression', 'AssignmentExpression', 'LogicalExpression',
  'MemberExpression', 'ConditionalExpression', 'CallExpression', 'NewExpression', 'SequenceExpression',
  'TemplateLiteral', 'TemplateElement', 'AwaitExpression', 'RestElement', 'ImportDeclaration', 'ImportDefaultSpecifier',
]);

/** What a person calls the node types outside the list. */
const NAMES: Record<string, string> = {
  ForOfStatement: 'for…of',
  SpreadElement: 'spread (...)',
  ObjectPattern: 'destructuring',
  ArrayPattern: 'destructuring',
  AssignmentPattern: 'a default value in destructuring',
  ClassDeclaration: 'class', ClassExpression: 'class',
  ChainExpression: 'optional chaining (?.)',
  TaggedTemplateExpression: 'a tagged template',
  YieldExpression: 'yield',
  MetaProperty: 'new.target or import.meta',
  ImportExpression: 'import()',
  ExportNamedDeclaration: 'export', ExportDefaultDeclaration: 'export', ExportAllDeclaration: 'export',
  WithStatement: 'with', DebuggerStatement: 'debugger',
};

/** The one module a function may import, as the runtime documents it: `import cf from 'cloudfront';`. */
const RUNTIME_MODULE = 'cloudfront';

const isFunction = (n: Node) => n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression';

/** A function's node, as far as the check reads it. */
interface Fn extends Node { params: Node[]; async: boolean; generator: boolean }

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'type') continue;
    if (Array.isArray(value)) { for (const v of value) if (v && typeof v.type === 'string') out.push(v as Node); }
    else if (value && typeof value === 'object' && typeof (value as Node).type === 'string') out.push(value as Node);
  }
  return out;
}

/** What the code itself names: its declared names, and the property names its own objects are given (whose methods it may call). */
interface Own { names: Set<string>; properties: Set<string> }

function ownNames(tree: Node): Own {
  const own: Own = { names: new Set(), properties: new Set() };
  const walk = (node: Node) => {
    const n = node as Node & Record<string, any>;
    if ((n.type === 'VariableDeclarator' || n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression') && n.id?.type === 'Identifier') own.names.add(n.id.name);
    if (isFunction(n)) for (const p of n.params as Node[]) if (p.type === 'Identifier') own.names.add((p as any).name);
    if (n.type === 'RestElement' && n.argument.type === 'Identifier') own.names.add(n.argument.name);
    if (n.type === 'ImportDefaultSpecifier' || n.type === 'ImportSpecifier') own.names.add(n.local.name);
    if (n.type === 'CatchClause' && n.param?.type === 'Identifier') own.names.add(n.param.name);
    if (n.type === 'Property' && !n.computed) own.properties.add(n.key.type === 'Identifier' ? n.key.name : String(n.key.value));
    if (n.type === 'AssignmentExpression' && n.left.type === 'MemberExpression' && !n.left.computed) own.properties.add(n.left.property.name);
    for (const child of children(node)) walk(child);
  };
  walk(tree);
  return own;
}

/** A member's name, when it is written out ('x.flat' or 'x["flat"]'). */
function memberName(m: Record<string, any>): string | undefined {
  if (!m.computed) return m.property.type === 'Identifier' ? m.property.name : undefined;
  return m.property.type === 'Literal' && typeof m.property.value === 'string' ? m.property.value : undefined;
}

/** The built-in a call or `new` reaches that the runtime lacks, or undefined. */
function missingBuiltIn(n: Record<string, any>, own: Own): string | undefined {
  const callee = n.callee;
  const isNew = n.type === 'NewExpression';
  if (callee.type === 'Identifier' && !own.names.has(callee.name)) {
    if (callee.name === 'Function') return 'the Function constructor';
    if (!GLOBAL_FUNCTIONS.has(callee.name)) return isNew ? `new ${callee.name}` : `${callee.name}()`;
    return undefined;
  }
  if (callee.type !== 'MemberExpression' || isNew) return undefined;
  const name = memberName(callee);
  if (name === undefined) return undefined;
  const object = callee.object;
  if (object.type === 'Identifier' && !own.names.has(object.name)) {
    const methods = object.name === 'console' ? ['log'] : STATIC_METHODS[object.name];
    return methods?.includes(name) ? undefined : `${object.name}.${name}()`;
  }
  return VALUE_METHODS.has(name) || own.properties.has(name) ? undefined : `.${name}()`;
}

/** What a regular expression literal holds that the runtime's engine refuses, or undefined. */
function regexProblem(regex: { pattern: string; flags: string }): string | undefined {
  const flag = [...regex.flags].find((f) => !REGEX_FLAGS.includes(f));
  if (flag) return `the regular expression flag ${flag} (/…/${regex.flags})`;
  if (/(?:^|[^\\])\(\?<[=!]/.test(regex.pattern)) return 'a lookbehind in a regular expression';
  if (/\\[pP]\{/.test(regex.pattern)) return 'a Unicode property escape (\\p{…}) in a regular expression';
  return undefined;
}

/** Where a node stands: in a call's arguments, as a function's parameter, how many functions deep, and what the code names itself. */
interface Place { inArguments: boolean; param: boolean; depth: number; own: Own }

/** The feature `node` uses that the runtime lacks, or undefined. */
function unsupported(node: Node, place: Place): string | undefined {
  const { inArguments, param, depth, own } = place;
  const n = node as Node & Record<string, any>;
  if (!SUPPORTED.has(n.type)) return n.type === 'AssignmentPattern' && param ? 'a default parameter' : NAMES[n.type] ?? n.type;
  if (isFunction(n)) {
    if (n.generator) return 'a generator function';
    if (n.async && n.type !== 'FunctionDeclaration') return 'an async closure (an async function expression or arrow)';
    if (n.async && depth > 0) return 'an async closure (an async function inside another function)';
  }
  if (n.type === 'CatchClause' && !n.param) return 'an optional catch binding (catch without its (error))';
  if (n.type === 'AwaitExpression' && depth === 0) return 'await outside an async function (top-level await)';
  if (n.type === 'Literal' && n.regex) { const problem = regexProblem(n.regex); if (problem) return problem; }
  if (n.type === 'CallExpression' || n.type === 'NewExpression') { const missing = missingBuiltIn(n, own); if (missing) return missing; }
  if (n.type === 'RestElement' && !param) return 'a rest element in destructuring';
  if (n.type === 'AwaitExpression' && inArguments) return 'await in a call\'s arguments';
  if (n.type === 'LogicalExpression' && n.operator === '??') return 'nullish coalescing (??)';
  if (n.type === 'AssignmentExpression' && /^(?:&&|\|\||\?\?)=$/.test(n.operator)) return `logical assignment (${n.operator})`;
  if ((n.type === 'MemberExpression' || n.type === 'CallExpression') && n.optional) return 'optional chaining (?.)';
  if (n.type === 'Property') {
    if (n.computed) return 'a computed property name';
    if (n.method) return 'a method shorthand';
    if (n.shorthand) return 'a shorthand property';
  }
  if (n.type === 'Literal' && n.bigint !== undefined) return 'a BigInt literal';
  if (n.type === 'ImportDeclaration' && (n.source.value !== RUNTIME_MODULE || n.specifiers.length !== 1)) return `an import other than import cf from '${RUNTIME_MODULE}'`;
  return undefined;
}

/**
 * One line per feature of `code` outside the runtime's list: `file:line:column: <feature> is not
 * supported by …`. Code that does not parse is one line too.
 */
export function runtimeProblems(code: string, file: string): string[] {
  let tree: Node;
  try {
    tree = parse(code, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  } catch (error) {
    return [`${file}: ${(error as Error).message}: not JavaScript that CloudFront Functions can parse`];
  }
  const problems: string[] = [];
  const own = ownNames(tree);
  const visit = (node: Node, inArguments: boolean, param: boolean, depth: number) => {
    const feature = unsupported(node, { inArguments, param, depth, own });
    if (feature) {
      const at = node.loc!.start;
      problems.push(`${file}:${at.line}:${at.column + 1}: ${feature} is not supported by CloudFront Functions' JavaScript runtime 2.0`);
      // A pattern's, a chain's or a class's own parts (shorthand properties, `?.` members, methods) are that one feature.
      if (/Pattern$|^ChainExpression$|^Class/.test(node.type)) return;
    }
    const n = node as Node & Record<string, any>;
    if (isFunction(n)) {
      const fn = n as unknown as Fn;
      for (const p of fn.params) visit(p, false, true, depth + 1);
      if (n.id) visit(n.id, false, false, depth + 1);
      visit(n.body, false, false, depth + 1);
      return;
    }
    if (n.type === 'CallExpression' || n.type === 'NewExpression') {
      visit(n.callee, inArguments, false, depth);
      for (const a of n.arguments as Node[]) visit(a, true, false, depth);
      return;
    }
    for (const child of children(node)) visit(child, inArguments, false, depth);
  };
  visit(tree, false, false, 0);
  return problems;
}

/** An emitted function holds syntax the runtime would refuse: the build stops and names each place. */
export class FunctionRuntimeError extends Error {
  override name = 'FunctionRuntimeError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }

  get lines(): string[] {
    return [...this.problems.map((p) => `error: ${p}`), `build stopped: the CloudFront functions use ${this.problems.length === 1 ? 'a feature' : `${this.problems.length} features`} their runtime lacks (src/url-resolution/function-runtime.ts lists what it has)`];
  }
}
