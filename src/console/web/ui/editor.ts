/**
 * The code editor of the console and the playground: CodeMirror 6 with its basic setup, YAML
 * highlighting for documents, and diagnostics (an error marked at its line, listed in the
 * gutter and readable by screen readers through CodeMirror's lint panel). Each editor carries an
 * accessible name, since a contenteditable has no <label>.
 */
import { basicSetup } from 'codemirror';
import { EditorView, keymap } from '@codemirror/view';
import { EditorState, type Extension } from '@codemirror/state';
import { yaml } from '@codemirror/lang-yaml';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';

export interface Editor {
  readonly view: EditorView;
  text(): string;
  setText(text: string): void;
  /** Marks errors: each at its 1-based line (or at a line and column). */
  mark(errors: { line: number; column?: number; message: string }[]): void;
  destroy(): void;
}

export interface EditorOptions {
  parent: HTMLElement;
  text: string;
  /** The accessible name (`aria-label`) of the editing area. */
  label: string;
  /** Documents are YAML; expressions are plain text. */
  language?: 'yaml' | 'text';
  id?: string;
  onChange?: (text: string) => void;
  /** Ctrl/Cmd-Enter. */
  onSubmit?: () => void;
  readOnly?: boolean;
}

/** The style nonce of this page's response (the content security policy allows no other inline style). */
function styleNonce(): string {
  const n = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? '';
  return n.startsWith('__') ? '' : n;
}

export function createEditor(o: EditorOptions): Editor {
  const extensions: Extension[] = [
    basicSetup,
    EditorView.cspNonce.of(styleNonce()),
    lintGutter(),
    EditorView.contentAttributes.of({ 'aria-label': o.label, ...(o.id ? { id: o.id } : {}) }),
    EditorView.lineWrapping,
    EditorView.updateListener.of((u) => {
      if (u.docChanged) o.onChange?.(u.state.doc.toString());
    }),
  ];
  if (o.language === 'yaml') extensions.push(yaml());
  if (o.readOnly) extensions.push(EditorState.readOnly.of(true));
  if (o.onSubmit) {
    const submit = o.onSubmit;
    extensions.unshift(keymap.of([{ key: 'Mod-Enter', run: () => (submit(), true) }]));
  }
  const view = new EditorView({ parent: o.parent, state: EditorState.create({ doc: o.text, extensions }) });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      if (text === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    mark(errors) {
      const doc = view.state.doc;
      const diagnostics: Diagnostic[] = errors.map((e) => {
        const line = doc.line(Math.min(Math.max(1, e.line), doc.lines));
        const from = e.column !== undefined ? Math.min(line.to, line.from + Math.max(0, e.column - 1)) : line.from;
        const to = e.column !== undefined ? Math.min(line.to, from + 1) : line.to;
        return { from, to: Math.max(from, to), severity: 'error', message: e.message };
      });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    destroy: () => view.destroy(),
  };
}
