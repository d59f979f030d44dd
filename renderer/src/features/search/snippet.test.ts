import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { decodeEntities, parseSnippet, type SnippetPart } from './snippet';
import { SnippetText } from './SnippetText';

const t = (text: string): SnippetPart => ({ text, em: false });
const e = (text: string): SnippetPart => ({ text, em: true });

describe('parseSnippet', () => {
  it.each<[string, SnippetPart[]]>([
    ['plain text', [t('plain text')]],
    ['', []],
    ['local <em>food</em> bank', [t('local '), e('food'), t(' bank')]],
    ['<EM>Food</EM>', [e('Food')]],
    ['<em>a</em><em>b</em>', [e('ab')]],
    ['<script>alert(1)</script>', [t('<script>alert(1)</script>')]],
    ['<img src=x onerror="alert(1)">', [t('<img src=x onerror="alert(1)">')]],
    ['<em onclick="x">no</em>', [t('<em onclick="x">no')]],
    ['<b>bold</b> <em>yes</em>', [t('<b>bold</b> '), e('yes')]],
    ['<em>outer <em>inner</em> still</em> out', [e('outer inner still'), t(' out')]],
    ['stray </em> close', [t('stray  close')]],
    ['<em>never closed', [e('never closed')]],
    ['<em><script>x</script></em>', [e('<script>x</script>')]],
    ['Fish &amp; chips', [t('Fish & chips')]],
    ['&lt;em&gt;escaped&lt;/em&gt;', [t('<em>escaped</em>')]],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', [t('<script>alert(1)</script>')]],
    ['<em>caf&#233;</em> &#x1F600; &bogus; &#0;', [e('café'), t(' 😀 &bogus; &#0;')]],
  ])('%j', (input, parts) => {
    expect(parseSnippet(input)).toEqual(parts);
  });

  it('decodes only known entities', () => {
    expect(decodeEntities('&quot;a&apos; &nbsp;&#xD800;')).toBe('"a\' \u00a0&#xD800;');
  });
});

describe('SnippetText', () => {
  it('renders markup as text, with <em> the only element from the snippet', () => {
    const html = renderToStaticMarkup(
      createElement(SnippetText, {
        snippet: '<img src=x onerror="alert(1)"><em>food</em><script>bad()</script>',
      }),
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toMatch(/<em[^>]*>food<\/em>/);
  });
});
