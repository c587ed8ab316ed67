import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import i18n from "../../../i18n";
import type { PreviewSegment } from "../api/preview";
import { SegmentPreviewList } from "./segment-preview-list";

const segment = (position: number, tokens: number) => ({ position, tokens, content: `段落 ${position}` }) as PreviewSegment;

afterEach(() => i18n.changeLanguage("zh"));

describe("the segment preview's counts in English", () => {
  it("say one segment and one token in the singular", async () => {
    await i18n.changeLanguage("en");
    render(<SegmentPreviewList segments={[segment(0, 1)]} />);
    expect(screen.getByText("1 segment")).toBeTruthy();
    expect(screen.getByText("1 token")).toBeTruthy();
  });

  it("say several in the plural", async () => {
    await i18n.changeLanguage("en");
    render(<SegmentPreviewList segments={[segment(0, 19), segment(1, 2)]} />);
    expect(screen.getByText("2 segments")).toBeTruthy();
    expect(screen.getByText("19 tokens")).toBeTruthy();
  });

  it("keep the Chinese forms", () => {
    render(<SegmentPreviewList segments={[segment(0, 1)]} />);
    expect(screen.getByText("共 1 段")).toBeTruthy();
  });
});
