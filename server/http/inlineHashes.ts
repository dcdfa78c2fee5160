import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The CSP's hashes of the inline `<script>` and `<style>` blocks of the built HTML pages. /login's HTML
 * is rendered at build time with its own rules and the early-submit script inline
 * (scripts/prerenderLogin.ts): the policy allows exactly those blocks, read from the files the portal
 * serves, and no other inline code. Without a build there is nothing to allow.
 */
export function inlineHashes(distDir: string): { script: string[]; style: string[] } {
  const found = { script: new Set<string>(), style: new Set<string>() };
  for (const file of htmlFiles(distDir)) {
    const html = fs.readFileSync(file, 'utf8');
    // A script with a src loads a file, which 'self' allows; only a bare <script> carries code.
    for (const [, code] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) found.script.add(hashOf(code));
    for (const [, css] of html.matchAll(/<style>([\s\S]*?)<\/style>/g)) found.style.add(hashOf(css));
  }
  return { script: [...found.script], style: [...found.style] };
}

const hashOf = (text: string) =>
  `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The HTML files of the build: index.html and each prerendered page's (one folder down). */
function htmlFiles(distDir: string): string[] {
  if (!fs.existsSync(distDir)) return [];
  const files: string[] = [];
  for (const entry of fs.readdirSync(distDir, { withFileTypes: true })) {
    const at = path.join(distDir, entry.name);
    if (entry.isFile() && entry.name.endsWith('.html')) files.push(at);
    else if (entry.isDirectory() && entry.name !== 'assets' && fs.existsSync(path.join(at, 'index.html')))
      files.push(path.join(at, 'index.html'));
  }
  return files;
}
