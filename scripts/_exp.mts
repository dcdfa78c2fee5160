import sharp from 'sharp';
import { PNG } from 'pngjs';
import { photoPrintOf, likeness, hashDistance } from '../server/integrity/photoHash';
function portrait(r: () => number): Uint8Array {
  const W = 90, H = 112;
  const png = new PNG({ width: W, height: H });
  const cx = 45 + (r() - 0.5) * 20, cy = 44 + (r() - 0.5) * 16, rx = 15 + r() * 9, ry = 19 + r() * 9;
  const sx = 45 + (r() - 0.5) * 16, sw = 34 + r() * 16, sy = 116 + r() * 14;
  const ang = r() * Math.PI * 2, amp = 20 + r() * 60;
  const ground = [170 + r() * 80, 170 + r() * 80, 170 + r() * 80];
  const skin = [70 + r() * 90, 45 + r() * 65, 25 + r() * 45];
  const clothes = [r() * 200, r() * 200, r() * 200];
  const hairTop = 0.1 + r() * 0.7, hairWide = 1 + r() * 0.35;
  const blobs = Array.from({ length: 3 }, () => [r() * W, r() * H, 10 + r() * 25, (r() - 0.5) * 90]);
  const inE = (x: number, y: number, cx: number, cy: number, rx: number, ry: number) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    let shade = amp * (((x - 45) * Math.cos(ang) + (y - 56) * Math.sin(ang)) / 70);
    for (const [bx, by, br, ba] of blobs) shade += ba * Math.exp(-((x - bx) ** 2 + (y - by) ** 2) / (br * br));
    let c = ground.map((v) => v + shade);
    if (inE(x, y, sx, sy, sw, 42)) c = clothes;
    else if (x >= cx - 8 && x <= cx + 8 && y >= cy + ry * 0.6 && y <= cy + ry + 18) c = skin;
    else if (inE(x, y, cx, cy - ry * 0.15, rx * hairWide, ry * 1.05) && y < cy - ry * (0.9 - hairTop)) c = [25, 20, 18];
    else if (inE(x, y, cx, cy, rx, ry)) c = skin;
    const i = (y * W + x) * 4;
    png.data[i] = Math.max(0, Math.min(255, c[0])); png.data[i + 1] = Math.max(0, Math.min(255, c[1])); png.data[i + 2] = Math.max(0, Math.min(255, c[2])); png.data[i + 3] = 255;
  }
  return new Uint8Array(PNG.sync.write(png));
}
let s = 7; const r = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
const origs = Array.from({ length: 330 }, () => portrait(r));
const ps = await Promise.all(origs.map(photoPrintOf));
const ls: number[] = [], ds: number[] = [];
for (let i = 0; i < ps.length; i++) for (let j = i + 1; j < ps.length; j++) { ls.push(likeness(ps[i].thumb, ps[j].thumb)); ds.push(hashDistance(ps[i].hash, ps[j].hash)); }
ls.sort((a, b) => b - a); ds.sort((a,b)=>a-b);
const wl: number[] = [], wd: number[] = [];
for (let i = 0; i < 40; i++) { const o = origs[i]; for (const b of [await sharp(o).resize(300, 373).jpeg({ quality: 60 }).toBuffer(), await sharp(o).resize(61, 76).jpeg({ quality: 40 }).toBuffer(), await sharp(o).resize(200).webp({ quality: 50 }).toBuffer(), await sharp(o).resize(640).jpeg({quality: 85}).toBuffer()]) { const p = await photoPrintOf(new Uint8Array(b)); wl.push(likeness(ps[i].thumb, p.thumb)); wd.push(hashDistance(ps[i].hash, p.hash)); } }
wl.sort((a,b)=>a-b); wd.sort((a,b)=>b-a);
console.log('look-alike likeness max', ls.slice(0, 5).map((x) => x.toFixed(3)).join(','), 'hash min', ds.slice(0,5).join(','));
console.log('re-encoded likeness min', wl.slice(0, 5).map((x) => x.toFixed(4)).join(','), 'hash max', wd.slice(0,5).join(','));
