import type { RuleFunction } from "@agentfair/contracts";
import { FormulaError, formulaErrorText, namesIn, parseFormula, type Token, tokenize } from "@agentfair/contracts/rules-formula";
import { Typography } from "antd";
import { type KeyboardEvent, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

const COLORS: Partial<Record<Token["type"], string>> = {
  function: "#1677ff",
  name: "#7c3aed",
  number: "#d97706",
  string: "#16a34a",
  boolean: "#d97706",
  operator: "#db2777",
  error: "#dc2626",
};

const FONT = { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontSize: 13, lineHeight: "20px" };
const PAD = 8;

interface Suggestion {
  label: string;
  kind: "function" | "param";
  detail: string;
}

/** The problem of an expression, with its place: syntax from the shared parser, names from the function list. */
export function formulaProblem(value: string, functions: RuleFunction[], params: string[], lang: "zh" | "en") {
  if (!value.trim()) return null;
  try {
    const tree = parseFormula(value);
    const names = namesIn(tree);
    const known = new Set(functions.map((f) => f.name));
    const unknownFn = [...names.functions].find((f) => functions.length && !known.has(f));
    if (unknownFn) {
      const at = value.toUpperCase().indexOf(unknownFn);
      return {
        text: formulaErrorText(new FormulaError("unknownFunction", at, at + unknownFn.length, unknownFn), lang),
        start: at,
        end: at + unknownFn.length,
      };
    }
    const unknownParam = [...names.params].find((p) => !params.includes(p));
    if (unknownParam) {
      const at = value.search(new RegExp(`(?<![\\w\\u4e00-\\u9fff])${unknownParam}(?![\\w\\u4e00-\\u9fff])`));
      return {
        text: formulaErrorText(new FormulaError("unknownName", at, at + unknownParam.length, unknownParam), lang),
        start: at,
        end: at + unknownParam.length,
      };
    }
    return null;
  } catch (e) {
    if (e instanceof FormulaError) return { text: formulaErrorText(e, lang), start: e.start, end: Math.max(e.end, e.start + 1) };
    return null;
  }
}

/**
 * The formula editor: a textarea over a highlighted copy of its text (same font and padding),
 * completion of function and parameter names from the caret's word, and the first problem
 * underlined in place and written under the editor.
 */
export function FormulaEditor({
  value = "",
  onChange,
  functions,
  params,
  testId,
}: {
  value?: string;
  onChange?: (v: string) => void;
  functions: RuleFunction[];
  params: { name: string; description: string }[];
  testId?: string;
}) {
  const { i18n } = useTranslation();
  const lang = i18n.language === "en" ? "en" : "zh";
  const area = useRef<HTMLTextAreaElement>(null);
  const back = useRef<HTMLPreElement>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [closed, setClosed] = useState(true);
  /** Where the caret goes once a picked completion is in the value (a controlled textarea moves it to the end). */
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const pos = pendingCaret.current;
    if (pos === null || !area.current || area.current.value !== value) return;
    pendingCaret.current = null;
    area.current.setSelectionRange(pos, pos);
    setCaret(pos);
  }, [value]);

  const tokens = useMemo(() => tokenize(value, true), [value]);
  const problem = useMemo(
    () =>
      formulaProblem(
        value,
        functions,
        params.map((p) => p.name),
        lang,
      ),
    [value, functions, params, lang],
  );

  const word = useMemo(() => {
    const before = value.slice(0, caret);
    const m = before.match(/[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]*$/);
    return m ? { text: m[0], start: caret - m[0].length } : null;
  }, [value, caret]);

  const suggestions: Suggestion[] = useMemo(() => {
    if (!word || closed) return [];
    const w = word.text.toLowerCase();
    const fns = functions
      .filter((f) => f.name.toLowerCase().startsWith(w))
      .map((f) => ({ label: f.name, kind: "function" as const, detail: `${f.description} · ${f.example}` }));
    const ps = params
      .filter((p) => p.name.toLowerCase().startsWith(w) && p.name !== word.text)
      .map((p) => ({ label: p.name, kind: "param" as const, detail: p.description }));
    return [...ps, ...fns].slice(0, 8);
  }, [word, closed, functions, params]);

  const pick = (s: Suggestion) => {
    if (!word) return;
    const insert = s.kind === "function" ? `${s.label}(` : s.label;
    const next = value.slice(0, word.start) + insert + value.slice(caret);
    onChange?.(next);
    pendingCaret.current = word.start + insert.length;
    setClosed(true);
    area.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!suggestions.length) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => (a + (e.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length);
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      pick(suggestions[Math.min(active, suggestions.length - 1)]);
    } else if (e.key === "Escape") setClosed(true);
  };

  const rendered = tokens.map((tok) => {
    const bad = problem && tok.start < problem.end && tok.end > problem.start;
    return (
      <span
        key={tok.start}
        style={{
          color: COLORS[tok.type],
          fontWeight: tok.type === "function" ? 600 : undefined,
          textDecoration: bad ? "underline wavy #dc2626" : undefined,
        }}
      >
        {tok.text}
      </span>
    );
  });

  return (
    <div>
      <div style={{ position: "relative", border: `1px solid ${problem ? "#ff4d4f" : "#d9d9d9"}`, borderRadius: 6, background: "#fff" }}>
        <pre
          ref={back}
          aria-hidden
          style={{
            ...FONT,
            margin: 0,
            padding: PAD,
            minHeight: 84,
            whiteSpace: "pre-wrap",
            wordBreak: "break-all",
            overflow: "hidden",
            pointerEvents: "none",
          }}
        >
          {rendered}
          {"\n"}
        </pre>
        <textarea
          ref={area}
          value={value}
          spellCheck={false}
          data-testid={testId}
          onChange={(e) => {
            onChange?.(e.target.value);
            setCaret(e.target.selectionStart);
            setClosed(false);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onKeyUp={(e) => setCaret(e.currentTarget.selectionStart)}
          onClick={(e) => {
            setCaret(e.currentTarget.selectionStart);
            setClosed(true);
          }}
          onBlur={() => setTimeout(() => setClosed(true), 150)}
          onScroll={(e) => {
            if (back.current) back.current.scrollTop = e.currentTarget.scrollTop;
          }}
          style={{
            ...FONT,
            position: "absolute",
            inset: 0,
            width: "100%",
            height: "100%",
            padding: PAD,
            border: "none",
            outline: "none",
            resize: "none",
            background: "transparent",
            color: "transparent",
            caretColor: "#111",
            whiteSpace: "pre-wrap",
            wordBreak: "break-all",
          }}
        />
        {suggestions.length > 0 && (
          <div
            role="listbox"
            data-testid="formula-suggestions"
            style={{
              position: "absolute",
              top: "100%",
              left: 0,
              zIndex: 10,
              width: 420,
              maxHeight: 260,
              overflow: "auto",
              background: "#fff",
              border: "1px solid #d9d9d9",
              borderRadius: 6,
              boxShadow: "0 6px 16px rgba(0,0,0,0.12)",
            }}
          >
            {suggestions.map((s, i) => (
              <div
                key={`${s.kind}-${s.label}`}
                role="option"
                aria-selected={i === active}
                tabIndex={-1}
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(s);
                }}
                style={{ padding: "4px 10px", cursor: "pointer", background: i === active ? "#e6f4ff" : undefined }}
              >
                <span style={{ ...FONT, color: s.kind === "function" ? COLORS.function : COLORS.name, fontWeight: 600 }}>{s.label}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 8 }} ellipsis>
                  {s.detail}
                </Typography.Text>
              </div>
            ))}
          </div>
        )}
      </div>
      {problem && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="formula-error">
          {problem.text}
        </Typography.Text>
      )}
    </div>
  );
}
