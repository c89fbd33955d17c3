/**
 * The UI library as the console uses it: Preact (a 4 kB React-compatible renderer) with htm's
 * tagged templates, so components are plain TypeScript without a JSX build step; and the code
 * editor as a component.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { html } from 'htm/preact';
import { createEditor, type Editor, type EditorOptions } from './editor.ts';

export { html };

export interface CodeEditorProps extends Omit<EditorOptions, 'parent' | 'text'> {
  text: string;
  /** Given the editor once it exists (to read its text, mark errors). */
  editorRef?: (e: Editor | undefined) => void;
  marks?: { line: number; column?: number; message: string }[];
  class?: string;
}

/** A CodeMirror editor; `text` replaces the content when it changes from outside. */
export function CodeEditor(p: CodeEditorProps): ComponentChildren {
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<Editor | undefined>(undefined);
  const props = useRef(p);
  props.current = p;
  // What the editor itself reported since the text was last set from outside: a render still
  // carrying one of those (renders lag behind typing) must not be pushed back into the editor,
  // or editor and state would overwrite each other in turn forever.
  const emitted = useRef(new Set<string>());
  useEffect(() => {
    const e = createEditor({
      ...p,
      parent: host.current!,
      text: p.text,
      onChange: (t) => {
        if (emitted.current.size > 500) emitted.current.clear();
        emitted.current.add(t);
        props.current.onChange?.(t);
      },
      onSubmit: () => props.current.onSubmit?.(),
    });
    ed.current = e;
    p.editorRef?.(e);
    return () => {
      p.editorRef?.(undefined);
      e.destroy();
    };
  }, []);
  useEffect(() => {
    if (emitted.current.has(p.text)) return;
    emitted.current.clear();
    ed.current?.setText(p.text);
  }, [p.text]);
  useEffect(() => {
    ed.current?.mark(p.marks ?? []);
  }, [p.marks]);
  return html`<div class=${`editor ${p.class ?? ''}`} ref=${host}></div>`;
}
