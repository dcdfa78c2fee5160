import { Svg } from 'chartist';

/**
 * The portal's CSP allows no inline style attribute (style-src 'self', server/app.ts), and chartist 1.5
 * writes two: width and height on each chart's <svg>, overflow on each axis label's <foreignObject>.
 * Each was refused and logged (40 console errors on the board's Dashboard, best practices 92, issue 28).
 * Here chartist's one way of writing attributes sets a style through the CSSOM instead, which the CSP
 * allows, so the chart looks as chartist means it to and nothing is refused. Imported once, by Charts.
 */
const attr = Svg.prototype.attr as (this: Svg, attributes: unknown, ns?: string) => unknown;

function attrThroughCssom(this: Svg, attributes: unknown, ns?: string) {
  if (attributes && typeof attributes === 'object' && 'style' in attributes) {
    const { style, ...rest } = attributes as Record<string, unknown>;
    const node = this.getNode();
    if (typeof style === 'string' && 'style' in node) (node as SVGElement).style.cssText += style;
    return attr.apply(this, [rest, ns]);
  }
  return attr.apply(this, [attributes, ns]);
}

Svg.prototype.attr = attrThroughCssom as typeof Svg.prototype.attr;
