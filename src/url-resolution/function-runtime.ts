/**
 * What CloudFront Functions' JavaScript runtime 2.0 runs, as its feature page lists it:
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-javascript-runtime-20.html
 * ES 5.1 (its types, operators, function features and the statements break, catch, continue,
 * do-while, else, finally, for, for-in, if, label, return, switch, throw, try, var, while), and of
 * later editions only const and let, async and await (await inside async functions; neither async
 * arguments nor async closures), template literals, arrow functions, rest parameters and the
 * exponent operator. Anything else may be refused when the function is published, or fail every
 * request it meets. `site build` parses each function it emits (acorn) and refuses one that holds
 * a feature outside this list, naming the feature and its place.
 */
import { parse, type Node } from 'acorn';

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

/** The feature `node` uses that the runtime lacks, or undefined; `inArguments`: within a call's arguments; `param`: a function's parameter itself. */
function unsupported(node: Node, inArguments: boolean, param: boolean): string | undefined {
  const n = node as Node & Record<string, any>;
  if (!SUPPORTED.has(n.type)) return n.type === 'AssignmentPattern' && param ? 'a default parameter' : NAMES[n.type] ?? n.type;
  if (isFunction(n)) {
    if (n.generator) return 'a generator function';
    if (n.async && n.type !== 'FunctionDeclaration') return 'an async closure (an async function expression or arrow)';
  }
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
  const visit = (node: Node, inArguments: boolean, param: boolean) => {
    const feature = unsupported(node, inArguments, param);
    if (feature) {
      const at = node.loc!.start;
      problems.push(`${file}:${at.line}:${at.column + 1}: ${feature} is not supported by CloudFront Functions' JavaScript runtime 2.0`);
      // A pattern's, a chain's or a class's own parts (shorthand properties, `?.` members, methods) are that one feature.
      if (/Pattern$|^ChainExpression$|^Class/.test(node.type)) return;
    }
    const n = node as Node & Record<string, any>;
    if (isFunction(n)) {
      const fn = n as unknown as Fn;
      for (const p of fn.params) visit(p, false, true);
      if (n.id) visit(n.id, false, false);
      visit(n.body, false, false);
      return;
    }
    if (n.type === 'CallExpression' || n.type === 'NewExpression') {
      visit(n.callee, inArguments, false);
      for (const a of n.arguments as Node[]) visit(a, true, false);
      return;
    }
    for (const child of children(node)) visit(child, inArguments, false);
  };
  visit(tree, false, false);
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
