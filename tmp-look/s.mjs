import { chromium } from 'playwright';
const B='http://127.0.0.1:4481';
const browser=await chromium.launch({executablePath:'/usr/lib/chromium/chromium-headless-shell'});
const out=(s)=>console.log(s);
for (const w of [390,1280]) {
const c=await browser.newContext(w===390?{viewport:{width:390,height:844},isMobile:true,hasTouch:true}:{viewport:{width:1280,height:900}});
const p=await c.newPage();
await p.goto(B+'/gateway',{waitUntil:'networkidle'});
await p.getByLabel(/email/i).first().fill('admin@example.com');
if(!(await p.locator('input[type=password]').isVisible())){await p.keyboard.press('Enter');}
await p.locator('input[type=password]').fill('demo-password-1');
await p.keyboard.press('Enter'); await p.waitForURL(/\/s/,{timeout:15000}).catch(()=>{}); await p.waitForLoadState('networkidle');
const ov=async(n)=>{const o=await p.evaluate(()=>({sw:document.documentElement.scrollWidth,wide:[...document.querySelectorAll('main *')].filter(e=>{const r=e.getBoundingClientRect();return r.width>0&&r.right>innerWidth+1}).slice(0,5).map(e=>e.tagName+'.'+String(e.className).slice(0,30)+':'+(e.textContent||'').slice(0,30))}));out(`${w} ${n} overflow ${JSON.stringify(o)}`);};
await p.goto(B+'/s/reports',{waitUntil:'networkidle'});
const rl=await p.$$eval('a',as=>as.map(a=>a.getAttribute('href')).filter(h=>/^\/s\/reports\/[^/]+$/.test(h||'')));
out(`${w} reports links ${rl.slice(0,4)}`);
const rid=rl.find(h=>!/new/.test(h));
await p.goto(B+rid,{waitUntil:'networkidle'}); await p.waitForTimeout(1500);
await p.screenshot({path:`/tmp/look/builder-${w}.png`,fullPage:true}); await ov('builder');
if(w===390){ const t=await p.locator('main').innerText(); const i=t.search(/schedul|by mail/i); out('BUILDER sched text: '+t.slice(Math.max(0,i-200),i+1500)); out('BUTTONS '+(await p.locator('main').getByRole('button').allInnerTexts()).join(' | '));}
await p.goto(B+'/s/audit',{waitUntil:'networkidle'}); await p.waitForTimeout(1000);
await p.screenshot({path:`/tmp/look/audit-${w}.png`,fullPage:false}); await ov('audit');
if(w===390){ out('AUDIT: '+(await p.locator('main').innerText()).slice(0,1500)); out('AUDIT BTN '+(await p.locator('main').getByRole('button').allInnerTexts()).join(' | '));}
await p.goto(B+'/s/alerts',{waitUntil:'networkidle'}); await p.waitForTimeout(800);
await p.screenshot({path:`/tmp/look/alerts-${w}.png`,fullPage:true}); await ov('alerts');
if(w===390) out('ALERTS: '+(await p.locator('main').innerText()).slice(0,800));
await p.goto(B+'/s/devices',{waitUntil:'networkidle'}).catch(()=>{});
const dl=await p.$$eval('a',as=>as.map(a=>a.getAttribute('href')).filter(h=>/^\/s\/devices?\/[^/]+$/.test(h||'')));
out(`${w} device links ${dl.slice(0,4)}`);
if(dl[0]){ await p.goto(B+dl[0],{waitUntil:'networkidle'}); await p.waitForTimeout(1000); await p.screenshot({path:`/tmp/look/device-${w}.png`}); await ov('device');
 if(w===390) out('DEVICE BTN '+(await p.locator('main').getByRole('button').allInnerTexts()).join(' | ')+' LINKS '+(await p.locator('main a').allInnerTexts()).join(' | '));}
await c.storageState({path:`/work/main/tmp-look/state-${w}.json`});
await c.close();
}
await browser.close();
