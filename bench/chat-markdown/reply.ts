/**
 * A long model reply of about 60 KB of Markdown, the same every run: headings and paragraphs with
 * emphasis, links and inline code, long tables, many fenced code blocks, long nested lists and a
 * quote. Ends with END_MARK, which the bench waits for.
 */
export const END_MARK = "报告结束-END-OF-REPLY";

export function longReply(targetBytes = 60_000): string {
  const parts: string[] = ["# 季度经营分析报告\n\n以下是根据你提供的数据整理的**完整分析**，包括销售明细、代码示例和执行清单。\n"];
  let section = 0;
  const size = () => Buffer.byteLength(parts.join("\n"));
  while (size() < targetBytes) {
    section++;
    parts.push(`## 第 ${section} 部分：区域 ${section} 的销售情况\n`);
    parts.push(
      `本部分汇总了区域 ${section} 的*月度*销售额、**同比增长**和 \`conversion_rate\`，详见 [数据来源](https://example.com/report/${section})。` +
        "整体来看，线上渠道的增长快于线下，但客单价略有下降，需要关注促销活动对利润率的影响。\n",
    );
    const rows = ["| 月份 | 渠道 | 销售额（元） | 订单数 | 同比 | 备注 |", "|---|---|---:|---:|---:|---|"];
    for (let i = 1; i <= 24; i++)
      rows.push(
        `| 2026-${String((i % 12) + 1).padStart(2, "0")} | ${i % 2 ? "线上" : "门店"} | ${(123456 + i * 977 * section).toLocaleString("en")} | ${300 + i * 7} | ${((i * 3.7) % 25).toFixed(1)}% | ${i % 5 ? "正常" : "**促销**"} |`,
      );
    parts.push(`${rows.join("\n")}\n`);
    parts.push(
      `\`\`\`${section % 3 ? "python" : "sql"}\n${
        section % 3
          ? `import pandas as pd\n\ndf = pd.read_csv("region_${section}.csv")\nsummary = df.groupby(["month", "channel"]).agg(sales=("amount", "sum"), orders=("id", "count"))\nsummary["growth"] = summary["sales"].pct_change(12)\nprint(summary.tail(12))\n`
          : `SELECT month, channel, SUM(amount) AS sales, COUNT(*) AS orders\nFROM orders\nWHERE region = ${section}\nGROUP BY month, channel\nORDER BY month;\n`
      }\`\`\`\n`,
    );
    const items: string[] = [];
    for (let i = 1; i <= 8; i++) {
      items.push(
        `${i}. 行动项 ${section}.${i}：优化${i % 2 ? "线上投放" : "门店陈列"}，负责人 **张三${i}**，截止 \`2026-12-${String(i + 10)}\``,
      );
      items.push(`   - 预计带来 ${i * 2}% 的增长`);
      items.push(`   - 风险：库存不足时需要 _提前备货_`);
    }
    parts.push(`${items.join("\n")}\n`);
    if (section % 4 === 0) parts.push("> 注意：以上数字为初步统计，最终以财务月结为准。\n> 如有疑问请联系数据团队。\n");
  }
  parts.push(`${END_MARK}\n`);
  return parts.join("\n");
}
